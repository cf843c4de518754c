#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make diff-check, inside a guest: make a seeded stream of tracefs steps,
carry it out on this kernel and write what every step did.

    guest-diff.py SEED N OUT LOAD      carry out N steps, records to OUT
    guest-diff.py steps=FILE 0 OUT LOAD  carry out the steps of FILE
    guest-diff.py --print SEED N       print the steps only (host)

The stream depends on the seed alone, never on what the kernel answered,
so that the same steps reach both kernels in the same order. It is cut
into episodes, each starting from nothing: a few dynamic and synthetic
events, triggers, controls, removals and workload runs (LOAD, the
diff-load program, makes the same hits on both kernels from pid 4000042),
then everything is taken down again.

Each step's record (one JSON object a line) holds, by item:
  rc       "ok" or the errno's name of the write
  err      the first error_log entry the write left (no time stamp)
  err.more the entries after it
  rb       the file written to, read back
  hist:P   after a workload run, the hist file P, normalised: entries
           whose sort values tie are put in one order, and where the
           values depend on time or on addresses only the totals are kept
  format:E the fields and print format of a synthetic event E (after a
           run), and layout:E where its fields lie
  trace    the lines the run left in the trace buffer (pid, event,
           fields), then cleared
  reset    what was still there after the episode was taken down
"""

import json
import os
import random
import re
import subprocess
import sys

T = "/sys/kernel/tracing"
# Far above what the guest's pids reach in a run, once pid_max allows it
# (keep_pid_free()), so that no other process ever holds it
PID = 4000042
INST = "instances/dt"

# The events the stream uses, with their fields: kind "s" signed number,
# "u" unsigned number, "p" pointer, "str" string, "sys" a syscall number.
STATIC_EVENTS = {
    "syscalls/sys_enter_write": {"__syscall_nr": "sys", "fd": "u",
                                 "buf": "p", "count": "u"},
    "syscalls/sys_exit_write": {"__syscall_nr": "sys", "ret": "s"},
    "syscalls/sys_enter_lseek": {"__syscall_nr": "sys", "fd": "u",
                                 "offset": "s", "whence": "u"},
    "syscalls/sys_exit_lseek": {"__syscall_nr": "sys", "ret": "s"},
    "ftrace/print": {"ip": "p", "buf": "str"},
    "sched/sched_process_exit": {"comm": "str", "pid": "s", "prio": "s"},
}
# Where a syscall event's pair is: onmatch() of an exit names its enter.
PAIRS = {
    "syscalls/sys_exit_write": "syscalls/sys_enter_write",
    "syscalls/sys_exit_lseek": "syscalls/sys_enter_lseek",
    "kprobes/dr": "kprobes/dk",
}
FILTERED = ("syscalls/", "kprobes/", "sched/", "synthetic/")

# Probe argument types, with the kind a hist sees; arrays and odd sizes
# are the point (a u8[3] is three bytes).
PROBE_SCALARS = ["u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
                 "x8", "x16", "x32", "x64"]
PROBE_ARRAY_ELEMS = ["u8", "s8", "u16", "u32", "char", "x8"]
# x86-64 pt_regs offsets of a syscall's first three arguments
REG_DI, REG_SI, REG_DX = 112, 104, 96

SYNTH_TYPES = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
               "pid_t", "int", "long", "unsigned long", "unsigned int",
               "char[16]", "char[]", "char[8]", "unsigned long[]", "bool"]

MARKER_TEXTS = ["hello", "a", "lat 1", "x" * 40, "t=5 v=9", "",
                "ab\tcd", "hello", "zz", "12345"]


def kind_num(k):
    return k in ("s", "u", "p", "sys")


class Gen:
    """The step stream of one seed."""

    def __init__(self, seed):
        self.rng = random.Random("diff-check:%s" % seed)
        self.n = 0

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def chance(self, p):
        return self.rng.random() < p

    # --- events of an episode -------------------------------------------
    def probe_arg(self, name):
        """A probe argument of __x64_sys_write(regs): a register of the
        call, a piece of pt_regs as an array (a u8[3] is three bytes),
        bytes of the user's buffer, a string."""
        r = self.rng.random()
        reg = self.pick([REG_DI, REG_DX])
        if r < 0.3:
            return "%s=+%d(%%di):%s" % (name, reg,
                                         self.pick(PROBE_SCALARS)), "u"
        if r < 0.55:
            t = "%s[%d]" % (self.pick(PROBE_ARRAY_ELEMS),
                            self.pick([1, 2, 3, 4, 5, 6, 7, 8]))
            return "%s=+%d(%%di):%s" % (name, reg, t), "arr"
        if r < 0.7:
            return "%s=+u0(+%d(%%di)):%s" % (name, REG_SI,
                                              self.pick(PROBE_SCALARS)), "u"
        if r < 0.85:
            return "%s=+u0(+%d(%%di)):%s" % (
                name, REG_SI, self.pick(["string", "ustring"])), "str"
        if r < 0.92:
            return "%s=$comm" % name, "str"
        return "%s=+%d(%%di):b4@2/8" % (name, reg), "u"

    def kprobe(self, ep):
        args, fields = [], {}
        for i in range(self.rng.randint(1, 4)):
            a, k = self.probe_arg("a%d" % i)
            args.append(a)
            fields["a%d" % i] = k
        ep.events["kprobes/dk"] = fields
        return "p:kprobes/dk __x64_sys_write " + " ".join(args)

    def kretprobe(self, ep):
        t = self.pick(["s64", "s32", "u64", "u32", "s8", "x16"])
        ep.events["kprobes/dr"] = {"ret": "s"}
        return "r:kprobes/dr __x64_sys_write ret=$retval:%s" % t

    def synth(self, ep, name):
        fields = {}
        parts = []
        for i in range(self.rng.randint(1, 4)):
            t = self.pick(SYNTH_TYPES)
            f = "f%d" % i
            if t.endswith("]"):
                base, dim = t.split("[")
                parts.append("%s %s[%s" % (base, f, dim))
                fields[f] = "stack" if base == "unsigned long" else "str"
            else:
                parts.append("%s %s" % (t, f))
                fields[f] = "s" if t[0] in "sil" or t == "pid_t" else "u"
        ep.events["synthetic/" + name] = fields
        return "%s %s" % (name, "; ".join(parts))

    # --- fields and triggers ----------------------------------------------
    def field(self, ep, ev, role, avoid=()):
        fields = ep.events.get(ev, {})
        names = [f for f in fields if f not in avoid] * 3 + ["common_pid"]
        if role == "key" and self.chance(0.1):
            names = ["common_stacktrace", "common_cpu"]
        names = [f for f in names if f not in avoid] or ["common_pid"]
        f = self.pick(names)
        k = fields.get(f, "u")
        if f == "common_stacktrace":
            return f, "stack"
        mod = ""
        if self.chance(0.35):
            if kind_num(k):
                mods = [".hex", ".log2", ".buckets=10", ".buckets=%d" %
                        self.pick([1, 4, 100])]
                if role == "val":
                    mods = [".hex", ".percent", ".graph"]
                if f == "common_pid":
                    mods.append(".execname")
                if k == "sys":
                    mods.append(".syscall")
                if k == "p":
                    mods += [".sym", ".sym-offset"]
            else:
                mods = [".hex", ".log2", ".execname"]
            if self.chance(0.1):
                mods = [".bogus", ".usecs", ".descending", ".buckets=0",
                        ".execname", ".syscall", ".sym"]
            mod = self.pick(mods)
        return f + mod, k

    def filt(self, ep, ev):
        fs = ""
        if ev.startswith(FILTERED) or self.chance(0.2):
            fs = " if common_pid == %d" % PID
        if self.chance(0.15):
            fields = ep.events.get(ev, {})
            nums = [f for f, k in fields.items() if kind_num(k)]
            strs = [f for f, k in fields.items() if k == "str"]
            if nums and self.chance(0.6):
                f = self.pick(nums)
                op = self.pick([">", "<", "==", "!=", "&"])
                # the low bits of an address differ from build to build
                if op == "&" and fields[f] == "p":
                    op = ">"
                c = "%s %s %s" % (f, op, self.pick([0, 1, 3, 100, -1]))
            elif strs:
                c = '%s %s "%s"' % (self.pick(strs),
                                    self.pick(["==", "!=", "~"]),
                                    self.pick(["hello", "h*", "diff-load"]))
            else:
                c = "bogus == 1"
            if ep.ext and self.chance(0.3):
                c = 'common_comm == "%s"' % self.pick(["diff-load", "x*"])
            fs = (fs + " && " + c) if fs else " if " + c
        return fs

    def trigger(self, ep, ev):
        """A hist trigger for event ev, with what it defines noted in ep."""
        fields = ep.events.get(ev, {})
        keys = []
        key_names = []
        for _ in range(self.pick([1, 1, 1, 1, 2, 2] * 10 + [3])):
            f, _k = self.field(ep, ev, "key", key_names)
            if ep.ext and kind_num(_k) and self.chance(0.3):
                f = f.split(".")[0] + ".loglin=%d" % self.pick([1, 4, 16, 3])
            keys.append(f)
            key_names.append(f.split(".")[0])
        # Now and then the costliest keys: two or three strings and
        # stacks, where the key size limits of the two kernels differ,
        # and a stack field with a number's modifier
        big = [f for f, k in fields.items() if k in ("str", "stack")]
        if big and self.chance(0.06):
            big = big + ["common_stacktrace"]
            want = self.pick([2, 3, 3])
            keys = self.rng.sample(big, min(len(big), want))
            keys += ["common_pid", "common_cpu"][:want - len(keys)]
            for i, f in enumerate(keys):
                if fields.get(f) == "stack" and self.chance(0.5):
                    keys[i] = f + self.pick([".hex", ".log2", ".sym"])
            key_names = [f.split(".")[0] for f in keys]
        parts = ["keys=" + ",".join(keys)]
        val_names = []
        if self.chance(0.6):
            vals = []
            # upstream keeps at most three values with hitcount: more is
            # an intended difference, kept rare
            for _ in range(self.pick([1, 1, 1, 2] * 8 + [3])):
                if self.chance(0.25):
                    vals.append("hitcount")
                    continue
                f, k = self.field(ep, ev, "val")
                if not kind_num(k) and self.chance(0.8):
                    continue
                if ep.ext and self.chance(0.4):
                    f = f.split(".")[0] + self.pick(
                        [".min", ".max", ".avg", ".stddev", ".p50", ".p99",
                         ".p100", ".p0"])
                vals.append(f)
                val_names.append(f.split(".")[0])
            if vals:
                parts.append("vals=" + ",".join(vals))
        if self.chance(0.4):
            cands = ["hitcount"] + key_names + val_names
            if self.chance(0.05):
                cands.append("bogus")
            sk = [self.pick(cands) + self.pick(["", "", ".descending",
                                                ".ascending"])]
            if self.chance(0.2):
                sk.append(self.pick(cands))
            parts.append("sort=" + ",".join(sk))
        if ep.ext and self.chance(0.3):
            parts.append("top=%d" % self.pick([1, 2, 5]))
        if self.chance(0.12):
            parts.append("size=%d" % self.pick([1, 2, 3, 128, 2048]))
        if self.chance(0.15):
            parts.append("name=dn%d" % self.rng.randint(0, 1))
        # variables: a field kept, an expression, a timestamp
        if self.chance(0.3):
            vs = []
            for i in range(self.pick([1, 1, 2])):
                nums = [f for f, k in fields.items() if kind_num(k)]
                r = self.rng.random()
                if r < 0.5 and fields:
                    src = self.pick(list(fields))
                elif r < 0.7 and nums:
                    src = "%s%s%s" % (self.pick(nums), self.pick("+-*/"),
                                      self.pick(["1", "3", self.pick(nums)]))
                elif r < 0.85:
                    src = "common_timestamp" + self.pick(["", ".usecs"])
                    ep.timed = True
                else:
                    src = self.pick(["common_pid", "common_cpu",
                                     "common_stacktrace", "$bogus"])
                    if src == "common_stacktrace":
                        ep.timed = True
                name = "v%d" % self.rng.randint(0, 3)
                vs.append("%s=%s" % (name, src))
                ep.vars[name] = (ev, fields.get(src, "u"))
            parts.append(",".join(vs))
        if self.chance(0.06):
            parts.append(self.pick(["pause", "cont", "clear", "nohitcount"]))
        return "hist:" + ":".join(parts) + self.filt(ep, ev)

    def param(self, ep, ev, want):
        """An action parameter for a synthetic field of kind want (None:
        any), mostly of that kind: a field, a variable, an expression, a
        common_* field, a literal."""
        fields = ep.events.get(ev, {})
        if want == "stack":
            return self.pick(["common_stacktrace", "stacktrace", "$st"] +
                             [f for f, k in fields.items() if k == "stack"])
        fits = [f for f, k in fields.items()
                if want is None or (want == "str") == (k == "str")]
        vfits = [v for v, (e, k) in ep.vars.items()
                 if want is None or (want == "str") == (k == "str")]
        r = self.rng.random()
        if r < 0.4 and fits:
            return self.pick(fits)
        if r < 0.75 and vfits:
            v = "$" + self.pick(vfits)
            if want != "str" and self.chance(0.2):
                v += self.pick(["+1", "*2", "-" + v])
            return v
        if r < 0.85:
            return self.pick(["common_pid", "common_cpu", "common_timestamp"]
                             if want != "str" else ["common_comm"])
        return self.pick(['"lit"', "3", "bogus", "$bogus",
                          "common_stacktrace"])

    def pipeline(self, ep):
        """A start trigger keeping values in variables, and a trigger on
        its end event with a handler and an action that reads them."""
        end = self.pick([e for e in PAIRS
                         if e in ep.events and PAIRS[e] in ep.events])
        start = PAIRS[end]
        j = ep.pipes
        ep.pipes += 1
        fields = ep.events.get(start, {})
        svars = []
        for f in list(fields)[: self.pick([1, 2, 3])]:
            svars.append("s%d_%s=%s" % (j, f, f))
            ep.vars["s%d_%s" % (j, f)] = (start, fields[f])
        timed = self.chance(0.35)
        if timed:
            svars.append("ts%d=common_timestamp.usecs" % j)
            ep.timed = True
        if self.chance(0.1):
            svars.append("st=common_stacktrace")
            ep.vars["st"] = (start, "stack")
            ep.timed = True
        first = ("hist:keys=common_pid:" + ",".join(svars or ["x=common_pid"])
                 + self.filt(ep, start), start)
        evars = []
        track = None
        if timed:
            evars.append("lat%d=common_timestamp.usecs-$ts%d" % (j, j))
            ep.vars["lat%d" % j] = (end, "u")
            track = "lat%d" % j
        efields = ep.events.get(end, {})
        if efields and (track is None or self.chance(0.4)):
            f = self.pick(list(efields))
            evars.append("e%d_%s=%s" % (j, f, f))
            ep.vars["e%d_%s" % (j, f)] = (end, efields[f])
            track = track or "e%d_%s" % (j, f)
        track = track or "bogus"
        synths = [e for e in ep.events if e.startswith("synthetic/")]
        syn = self.pick(synths) if synths else "synthetic/nosuch"
        sfields = list(ep.events.get(syn, {}).values()) or ["u", "u"]
        syn = syn.split("/")[1]
        if self.chance(0.1):
            sfields = sfields[:-1] if self.chance(0.5) else sfields + ["u"]
        params = ",".join(self.param(ep, end, k) for k in sfields)
        sev = start.replace("/", ".")
        r = self.rng.random()
        if r < 0.4:
            handler = "onmatch(%s).trace(%s,%s)" % (sev, syn, params)
        elif r < 0.55:
            handler = "onmatch(%s).%s(%s)" % (sev, syn, params)
        elif r < 0.7:
            handler = "onmax($%s).save(%s)" % (track, params)
        elif r < 0.8:
            handler = "onchange($%s).save(%s)" % (track, params)
        elif r < 0.9:
            handler = "%s($%s).trace(%s,%s)" % (
                self.pick(["onmax", "onchange"]), track, syn, params)
        else:
            handler = self.pick(["onmax($%s).snapshot()" % track,
                                 "onmatch(nosys.noev).trace(%s)" % syn,
                                 "onmatch(%s)" % sev])
        parts = ["keys=common_pid"]
        if evars:
            parts.append(",".join(evars))
        parts.append(handler)
        second = ("hist:" + ":".join(parts) + self.filt(ep, end), end)
        return [first, second]

    def var_key_reader(self, ep, ev):
        """A trigger keyed by a variable that another trigger on its event
        sets in the same hit, with a modifier and an aggregated value now
        and then: ours only, upstream refuses variables as keys
        ([variable-keys])."""
        cands = sorted(v for v, (e, k) in ep.vars.items()
                       if e == ev and kind_num(k)) or ["bogus"]
        v = self.pick(cands)
        parts = ["keys=$%s%s" % (v, self.pick(["", "", ".log2", ".hex",
                                                ".buckets=10", ".loglin=4"]))]
        if self.chance(0.5):
            parts.append("vals=hitcount,$%s%s" % (
                v, self.pick(["", ".max", ".avg", ".p50"])))
        return "hist:" + ":".join(parts) + self.filt(ep, ev), ev

    def wide_reader(self, ep):
        """A variable kept under a key of two numbers, read by a trigger
        keyed by one of them: what the two kernels do with the bytes past
        the shorter key differs ([variable-of-a-longer-key]). The second
        key, whence, is 0 in most of the workload's lseek calls."""
        j = ep.pipes
        ep.pipes += 1
        start, end = "syscalls/sys_enter_lseek", "syscalls/sys_exit_lseek"
        ep.vars["wv%d" % j] = (start, "s")
        first = "hist:keys=common_pid,whence:wv%d=offset" % j
        second = "hist:keys=common_pid:rv%d=$wv%d+1" % (j, j)
        return [(first + self.filt(ep, start), start),
                (second + self.filt(ep, end), end)]

    def faulted_string(self, ep, root):
        """A probe string that always faults (%di holds pt_regs, kernel
        memory, read here as the user's), followed by another string,
        kept in a variable and passed on by onmatch().trace(): what the
        two kernels pass for it differs ([probe-string-fault])."""
        start, end = "kprobes/df", "kprobes/dfr"
        # named as dk's arguments are, which the entries' patterns know
        ep.events[start] = {"a0": "str", "a1": "str"}
        ep.events[end] = {}
        ep.events["synthetic/ds7"] = {"f0": "str"}
        t = self.pick(["string", "ustring"])
        first = "hist:keys=common_pid:sf=a0" + self.filt(ep, start)
        second = ("hist:keys=common_pid:onmatch(kprobes.df).trace(ds7,$sf)"
                  + self.filt(ep, end))
        return [("write", "kprobe_events",
                 "p:%s __x64_sys_write a0=+u0(%%di):%s a1=$comm" % (start, t)),
                ("write", "kprobe_events", "r:%s __x64_sys_write" % end),
                ("write", "synthetic_events", "ds7 char f0[]"),
                ("write", root + "events/synthetic/ds7/enable", "1"),
                ("write", root + "events/%s/trigger" % start, first),
                ("write", root + "events/%s/trigger" % end, second)]

    def named_pair(self, ep):
        """Two triggers on different events that join one named hist:
        the same keys and values, and a variable of the same name made of
        each event's own field (which may differ in type and place)."""
        evs = self.rng.sample([e for e in ep.events
                               if not e.startswith("synthetic/") or
                               self.chance(0.5)], 2)
        shared = sorted(set(ep.events.get(evs[0], {})) &
                        set(ep.events.get(evs[1], {})))
        # the same text on both: a field of one name, which each event
        # may lay out differently
        same = self.pick(shared) if shared and self.chance(0.6) else None
        name = "dn%d" % self.rng.randint(0, 1)
        var = "w%d" % self.rng.randint(0, 1)
        out = []
        for ev in evs:
            fields = list(ep.events.get(ev, {})) or ["common_pid"]
            f = same or self.pick(fields)
            text = "hist:name=%s:keys=common_pid:vals=hitcount:%s=%s" % (
                name, var, f)
            out.append((text + self.filt(ep, ev), ev))
            ep.vars[var] = (ev, ep.events.get(ev, {}).get(f, "u"))
        return out

    def workload(self):
        ops = []
        for _ in range(self.rng.randint(1, 10)):
            r = self.rng.random()
            if r < 0.35:
                n = self.pick([0, 1, 2, 3, 5, 8, 13, 100])
                data = bytes(self.rng.randint(32, 126) for _ in range(n))
                ops.append("w:" + data.hex())
            elif r < 0.45:
                ops.append("f:%d:%s" % (self.pick([99, -1, 1000]),
                                        b"xy".hex()))
            elif r < 0.75:
                ops.append("l:%d:%d" % (self.pick([-5, 0, 1, 7, 100, 4096,
                                                   1 << 20]),
                                        self.pick([0, 0, 1, 2, 9])))
            else:
                ops.append("m:" + self.pick(MARKER_TEXTS).encode().hex())
        return ops

    # --- episodes -----------------------------------------------------------
    def episode(self):
        """The steps of one episode, as (op, path, text) tuples."""
        ep = Episode()
        # One episode in ten may use what only our kernel has: the
        # differences it makes are intended, and kept out of the others.
        ep.ext = self.chance(0.1)
        steps = []
        root = ""
        if self.chance(0.2):
            steps.append(("mkdir", INST, ""))
            root = INST + "/"
        ep.root = root
        if self.chance(0.6):
            steps.append(("write", "kprobe_events", self.kprobe(ep)))
        if self.chance(0.3):
            steps.append(("write", "dynamic_events", self.kretprobe(ep)))
        for i in range(self.pick([0, 1, 1, 2])):
            name = "ds%d" % i
            text = self.synth(ep, name)
            if self.chance(0.3):
                steps.append(("write", "dynamic_events", "s:" + text))
            else:
                steps.append(("write", "synthetic_events", text))
            if self.chance(0.6):
                steps.append(("write", root + "events/synthetic/%s/enable"
                              % name, "1"))
        ep.events.update(STATIC_EVENTS)
        made = []
        for _ in range(self.rng.randint(3, 12)):
            r = self.rng.random()
            evs = [e for e in ep.events
                   if not e.startswith("synthetic/") or self.chance(0.3)]
            if r < 0.4:
                ev = self.pick(evs)
                text = self.trigger(ep, ev)
                steps.append(("write", root + "events/%s/trigger" % ev, text))
                made.append((ev, text))
            elif r < 0.55 and self.chance(0.04):
                steps += self.faulted_string(ep, root)
            elif r < 0.55:
                pair = self.wide_reader(ep) if self.chance(0.1) else \
                    self.pipeline(ep)
                # the end event's variables keying a trigger there
                if ep.ext and self.chance(0.6):
                    pair.append(self.var_key_reader(ep, pair[-1][1]))
                for text, ev in pair:
                    steps.append(("write", root + "events/%s/trigger" % ev,
                                  text))
                    made.append((ev, text))
            elif r < 0.58:
                for text, ev in self.named_pair(ep):
                    steps.append(("write", root + "events/%s/trigger" % ev,
                                  text))
                    made.append((ev, text))
            elif r < 0.63 and made:
                ev, text = self.pick(made)
                text = text.split(" if ")[0]
                r2 = self.rng.random()
                if r2 < 0.5:
                    text = "!" + text
                else:
                    text = text + ":" + self.pick(["pause", "cont", "clear"])
                steps.append(("write", root + "events/%s/trigger" % ev, text))
            elif r < 0.66:
                ev = self.pick(evs)
                steps.append(("trunc", root + "events/%s/trigger" % ev,
                              self.trigger(ep, ev)))
            elif r < 0.69:
                name = "ds%d" % self.rng.randint(0, 2)
                if self.chance(0.5):
                    steps.append(("write", "synthetic_events", "!" + name))
                else:
                    steps.append(("write", "synthetic_events",
                                  self.synth(ep, name)))
            elif r < 0.71 and root:
                steps.append(("rmdir", INST, ""))
            else:
                steps.append(("run", root, " ".join(self.workload())))
        steps.append(("run", root, " ".join(self.workload())))
        return ep, steps

    def stream(self, n):
        """Yield (episode number, Episode, step) until n steps were made."""
        k = 0
        while self.n < n:
            ep, steps = self.episode()
            for s in steps:
                if self.n >= n:
                    break
                self.n += 1
                yield k, ep, s
            k += 1


class Episode:
    def __init__(self):
        self.events = {}
        self.vars = {}
        self.timed = False
        # an onmax().snapshot() may swap the trace buffer at a moment
        # that depends on how long a call took: the trace is not compared
        self.swaps = False
        # an onmax() or onchange() was asked for: on a latency, whether
        # it fires in a run depends on how long each kernel took
        self.handlers = False
        self.root = ""
        self.ext = False
        self.pipes = 0
        # names of histograms that a trigger without the workload's pid
        # filter joined in this episode: their entries include the
        # guest's other processes, on every sharer's section
        self.loose_names = set()
        # variable name -> the longest key (in upstream's bytes) of the
        # triggers that define it
        self.var_key_bytes = {}


# --- carrying steps out -------------------------------------------------------

def slurp(path):
    try:
        with open(os.path.join(T, path), "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError as e:
        return "<%s>" % errno_name(e)


def errno_name(e):
    import errno
    return errno.errorcode.get(e.errno, str(e.errno))


def write(path, text, trunc=False):
    flags = os.O_WRONLY | (os.O_TRUNC if trunc else os.O_APPEND)
    try:
        fd = os.open(os.path.join(T, path), flags)
    except OSError as e:
        return errno_name(e)
    try:
        os.write(fd, (text + "\n").encode())
        return "ok"
    except OSError as e:
        return errno_name(e)
    finally:
        try:
            os.close(fd)
        except OSError as e:
            return errno_name(e)


ERR_HEAD = re.compile(r"^\[\s*[0-9.]+\]\s*")


def error_log(root=""):
    """The entries of error_log (of the instance ROOT, "instances/x/",
    where a write to its files logs), without their time stamps: the
    first, and the ones after it (upstream logs one for every layer a
    failure passes through)."""
    entries = []
    for line in slurp(root + "error_log").splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            entries.append([])
        if entries:
            entries[-1].append(ERR_HEAD.sub("", line).rstrip())
    texts = ["\n".join(e) for e in entries]
    return (texts[0] if texts else ""), "\n".join(texts[1:])


# name: value; an empty .graph bar shows no value, and the next name
# must not be read as one
ENTRY_VAL = re.compile(r"([A-Za-z_][\w.]*):\s*((?:(?![A-Za-z_][\w.]*:)\S+)?)")
ADDR = re.compile(r"\b(0x)?ffff[0-9a-f]{12}\b")
SYM_OFF = re.compile(r"\+0x[0-9a-f]+/0x[0-9a-f]+")
# the keys of a trigger, in a command or in a hist file's trigger info
KEYS = re.compile(r":keys=([^:\s]+)")


def pid_filtered(text):
    """Does a trigger's text keep it to the workload's hits?"""
    return "common_pid == %d" % PID in text


def key_bytes(ep, ev, keys):
    """The size upstream gives the key of a trigger on ev with keys=keys:
    a stack 128 bytes, a string 256, anything else a u64."""
    fields = ep.events.get(ev, STATIC_EVENTS.get(ev, {}))
    n = 0
    for k in keys.split(","):
        f = k.split(".")[0]
        kind = fields.get(f, "u")
        n += 128 if "stacktrace" in f or kind == "stack" else \
            256 if kind == "str" else 8
    return n


def note_vars(ep, path, text):
    """Note the key size of the trigger that defines each variable of a
    trigger command."""
    m = re.match(r"^(?:%s/)?events/(\w+/\w+)/trigger$" % INST, path)
    keys = KEYS.search(text)
    if not m or not keys or not text.startswith("hist:"):
        return
    size = key_bytes(ep, m.group(1), keys.group(1))
    for part in text.split(" if ")[0].split(":")[1:]:
        for d in part.split(","):
            v = re.match(r"^(\w+)=", d)
            if v and v.group(1) not in ("keys", "vals", "sort", "size",
                                        "name", "clock", "top"):
                old = ep.var_key_bytes.get(v.group(1), 0)
                ep.var_key_bytes[v.group(1)] = max(old, size)


def latency_fed(ep):
    """May a synthetic event's hits depend on how long a call took?"""
    return ep.timed and ep.handlers


def norm_hist_section(sec, ep, ev):
    """One trigger's part of a hist file, in a form both kernels agree on
    where upstream says the order or the value is arbitrary."""
    timed = ep.timed
    head, entries, tail = [], [], []
    cur = None
    for line in sec:
        if line.startswith("{"):
            cur = [line]
            entries.append(cur)
            if "}" in line:
                cur = None
        elif cur is not None:
            cur.append(line)
            if "}" in line:
                cur = None
        elif entries:
            tail.append(line)
        else:
            head.append(line)
    info = next((h for h in head if h.startswith("# trigger info:")), "")
    # A trigger without the workload's filter (a pause or cont that
    # matched nothing makes one) counts the hits of the guest's other
    # processes too, whose pids and buffers differ from boot to boot.
    # A named histogram is one map for all its sharers: one sharer
    # without the filter, even one removed since, lets everyone in.
    name = re.search(r"[:]name=(\w+)", info)
    if not pid_filtered(info) or (
            name and name.group(1) in ep.loose_names):
        return head + ["<entries and totals not compared: unfiltered>"]
    if ev.startswith("synthetic/") and latency_fed(ep):
        return head + ["<entries and totals not compared: a latency "
                       "handler may feed the event>"]
    # A variable of a histogram whose key is longer than this one's: its
    # map compares its own key's bytes, past the end of this key.
    keys = KEYS.search(info)
    if keys and any(ep.var_key_bytes.get(v, 0) > key_bytes(ep, ev,
                                                            keys.group(1))
                    for v in re.findall(r"\$(\w+)", info)):
        head = head + ["<reads a variable keyed longer than its own key>"]
    volatile = ("common_timestamp" in info or "stacktrace" in info or
                ".sym" in info or (timed and "$" in info) or
                "ip" in re.findall(r"[=,]([a-z_]+)", info))
    if volatile:
        return head + ["<entries not compared>"] + [
            t for t in tail if "Hits:" in t or "Dropped:" in t]
    m = re.search(r":sort=([^: ]+)", info)
    sort = [s.split(".")[0] for s in m.group(1).split(",")] if m else []
    texts = ["\n".join(e) for e in entries]

    def sort_values(text):
        # A value named as a key is what sort= means (both kernels look
        # among the values first); shown as a .graph bar or a .percent
        # share, its number is not printed, and the entry's place among
        # equal sums cannot be told.
        keys, _, vals = text.rpartition("}")
        got = dict((k.split(".")[0], v) for k, v in ENTRY_VAL.findall(keys))
        shown = set(k.split(".")[0] for k in
                    re.findall(r"([A-Za-z_][\w.]*)(?: \(%\))?:", vals))
        val = dict((k.split(".")[0], v) for k, v in ENTRY_VAL.findall(vals))
        return tuple(val.get(s) if s in shown else got.get(s) for s in sort)

    out, run, last = [], [], object()
    for t in texts:
        v = sort_values(t) if sort else None
        if not sort or None in (v or ()):
            run.append(t)
            continue
        if v != last and run:
            out += sorted(run)
            run = []
        last = v
        run.append(t)
    out += sorted(run)
    return head + out + tail


def norm_hist(text, ep, ev):
    if text.startswith("<"):
        return text
    secs, cur = [], []
    for line in text.splitlines():
        if line.startswith("# event histogram") and cur:
            secs.append(cur)
            cur = []
        cur.append(line.rstrip())
    if cur:
        secs.append(cur)
    out = []
    for s in secs:
        out += norm_hist_section(s, ep, ev)
    return "\n".join(out)


TRACE_LINE = re.compile(r"^\s*.*?-(\d+)\s+\[\d+\]\s+\S+\s+[0-9.]+:\s+"
                        r"(\S+):\s?(.*)$")


def trace_lines(root, ep):
    timed = ep.timed
    out = []
    dropping = False
    for line in slurp(root + "trace").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        m = TRACE_LINE.match(line)
        if m:
            pid, ev, rest = m.groups()
            # a synthetic event's lines, with the stack lines that
            # follow them, when a latency handler may have sent them
            dropping = re.match(r"ds\d$", ev) is not None and \
                latency_fed(ep)
            if dropping:
                continue
            if timed:
                rest = re.sub(r"\d+", "N", rest)
            out.append("%s %s %s" % (pid, ev, ADDR.sub("ADDR", rest)))
        elif not dropping:
            out.append(re.sub(r"\+0x[0-9a-f]+", "+X", line.strip())
                       if not timed else "<stack line>")
    write(root + "trace", "", trunc=True)
    return out


FORMAT_FIELD = re.compile(r"^\s*field:(.*);\s*offset:(\d+);\s*size:(\d+);"
                          r"\s*signed:(\d+);")


def synth_format(ev):
    """A synthetic event's format in two items: its fields' types and
    names with the print format, and where each field lies (offset, size,
    signedness). Our records are packed, upstream's are not: the second
    item is an intended difference (see diff-intended.txt)."""
    fmt, layout = [], []
    for line in slurp("events/%s/format" % ev).splitlines():
        m = FORMAT_FIELD.match(line)
        if m:
            fmt.append("field:%s;" % m.group(1))
            layout.append("%s: offset %s size %s signed %s" % m.groups())
        elif not line.startswith("ID:"):
            fmt.append(line)
    return "\n".join(fmt), "\n".join(layout)


def events_with_files(root):
    """The events of the stream that exist now, under root."""
    out = []
    for ev in list(STATIC_EVENTS) + ["kprobes/dk", "kprobes/dr",
                                     "kprobes/df", "kprobes/dfr",
                                     "synthetic/ds0", "synthetic/ds1",
                                     "synthetic/ds2", "synthetic/ds7"]:
        if os.path.exists(os.path.join(T, root, "events", ev)):
            out.append(ev)
    return out


def remove_triggers(root, ev):
    """Remove the triggers of ev one by one, the newest first (a trigger
    that reads another's variables is made after it), then what is left
    with O_TRUNC."""
    path = root + "events/%s/trigger" % ev
    lines = [l for l in slurp(path).splitlines()
             if l and not l.startswith("#")]
    for line in reversed(lines):
        line = re.sub(r" \[(active|paused)\]$", "", line)
        write(path, "!" + line)
    write(path, "", trunc=True)


def take_down():
    """Remove everything the stream makes; say what would not go."""
    for _ in range(3):
        for root in ("", INST + "/"):
            if root and not os.path.isdir(os.path.join(T, INST)):
                continue
            for ev in reversed(events_with_files(root)):
                remove_triggers(root, ev)
                if ev.startswith("synthetic/"):
                    write(root + "events/%s/enable" % ev, "0")
        if os.path.isdir(os.path.join(T, INST)):
            try:
                os.rmdir(os.path.join(T, INST))
            except OSError:
                pass
        write("synthetic_events", "", trunc=True)
        write("kprobe_events", "", trunc=True)
        write("dynamic_events", "", trunc=True)
    left = []
    for root in ("", INST + "/"):
        for ev in events_with_files(root):
            for line in slurp(root + "events/%s/trigger" % ev).splitlines():
                if not line.startswith("#"):
                    left.append("%s%s: %s" % (root, ev, line))
    left += ["dynamic: " + l for l in slurp("dynamic_events").splitlines()]
    if os.path.isdir(os.path.join(T, INST)):
        left.append("instance left")
    write("trace", "", trunc=True)
    write("error_log", "", trunc=True)
    return "\n".join(left)


def run_step(op, path, text, ep, load):
    out = {}
    if op in ("write", "trunc"):
        root = INST + "/" if path.startswith(INST + "/") else ""
        write(root + "error_log", "", trunc=True)
        out["rc"] = write(path, text, trunc=(op == "trunc"))
        name = re.search(r"^hist:(?:.*:)?name=(\w+)", text)
        if name and path.endswith("/trigger") and not pid_filtered(text):
            ep.loose_names.add(name.group(1))
        ep.swaps |= ".snapshot()" in text and out["rc"] == "ok"
        ep.handlers |= "onmax(" in text or "onchange(" in text
        note_vars(ep, path, text)
        err, more = error_log(root)
        if err:
            out["err"] = err
        if more:
            out["err.more"] = more
        out["rb"] = slurp(path) if not path.endswith("/enable") else ""
        if path in ("synthetic_events", "dynamic_events", "kprobe_events"):
            out["rb"] = "\n".join(sorted(out["rb"].splitlines()))
    elif op == "mkdir" or op == "rmdir":
        if op == "rmdir" and os.path.isdir(os.path.join(T, path)):
            # Upstream 6.12 keeps a reference to a synthetic event for
            # each hist trigger of an instance on it that goes with the
            # instance: the event can never be deleted after, and every
            # later episode on the reference meets it. Those triggers go
            # first, on both kernels.
            for ev in events_with_files(path + "/"):
                if ev.startswith("synthetic/"):
                    remove_triggers(path + "/", ev)
        try:
            (os.mkdir if op == "mkdir" else os.rmdir)(os.path.join(T, path))
            out["rc"] = "ok"
        except OSError as e:
            out["rc"] = errno_name(e)
    elif op == "run":
        root = path
        if root and not os.path.isdir(os.path.join(T, root)):
            root = ""
        ops = text.split()
        p = subprocess.run([load, str(PID), os.path.join(T, root,
                                                          "trace_marker")]
                           + ops, capture_output=True)
        out["rc"] = "ok" if p.returncode == 0 else "load:%d %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip())
        for ev in events_with_files(root):
            h = slurp(root + "events/%s/hist" % ev)
            if "# trigger info" in h:
                out["hist:" + ev] = norm_hist(h, ep, ev)
            if ev.startswith("synthetic/"):
                out["format:" + ev], out["layout:" + ev] = synth_format(ev)
        lines = trace_lines(root, ep)
        if ep.swaps:
            lines = ["<trace not compared: snapshot() may have swapped it>"]
        out["trace"] = "\n".join(lines)
    return out


def replay(path):
    """The steps of a file instead of a seed's: "OP<tab>PATH<tab>TEXT"
    lines, a blank line between episodes (make diff-check STEPS=FILE)."""
    k, ep, n = 0, Episode(), 0
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if n:
                    k, ep, n = k + 1, Episode(), 0
                continue
            op, p, text = (line.split("\t") + ["", ""])[:3]
            # what the generator notes of an episode, from the text
            ep.timed |= "common_timestamp" in text or "stacktrace" in text
            n += 1
            yield k, ep, (op, p, text)


def keep_pid_free():
    """Make sure no process of the guest's holds the workload's pid when a
    step needs it. With the default pid_max of 32768 the pids wrap every
    few thousand steps, and a kernel thread made just then may keep the
    workload's pid for minutes (seen on the reference, seed b58d0150e4db,
    step 15628, with pid 4242). The largest pid_max, and a pid far above
    the few hundred thousand a long run takes, keep it free."""
    with open("/proc/sys/kernel/pid_max", "w") as f:
        f.write("4194304\n")


def main():
    if sys.argv[1] == "--print":
        g = Gen(sys.argv[2])
        for k, ep, (op, path, text) in g.stream(int(sys.argv[3])):
            print(g.n, k, op, path, text)
        return 0
    seed, n, out_path, load = sys.argv[1], int(sys.argv[2]), sys.argv[3], \
        sys.argv[4]
    g = Gen(seed)
    stream = g.stream(n)
    if seed.startswith("steps="):
        stream = replay(seed[len("steps="):])
    cur = -1
    # The workload's buffers on the stack: at the same addresses on both
    # kernels only without address space randomisation.
    with open("/proc/sys/kernel/randomize_va_space", "w") as f:
        f.write("0\n")
    keep_pid_free()
    buf = []
    with open(out_path, "w") as out:
        take_down()
        for k, ep, (op, path, text) in stream:
            g.n += seed.startswith("steps=")
            if k != cur:
                if cur >= 0:
                    buf.append(json.dumps({"n": g.n - 1, "ep": cur,
                                           "op": "reset",
                                           "out": {"reset": take_down()}}))
                cur = k
            rec = {"n": g.n, "ep": k, "op": op, "path": path, "text": text,
                   "out": run_step(op, path, text, ep, load)}
            if ep.ext:
                rec["ext"] = True
            buf.append(json.dumps(rec))
            if len(buf) >= 200:
                out.write("\n".join(buf) + "\n")
                buf = []
        buf.append(json.dumps({"n": g.n, "ep": cur, "op": "reset",
                               "out": {"reset": take_down()}}))
        out.write("\n".join(buf) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
