#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make diff-check: hold the records of our kernel and of the reference
against each other, step by step (see guest-diff.py for what a record
holds), and every difference against the intended differences.

    diff-compare.py [--strict] [--report FILE] --seed S --intended FILE \
        OURS.jsonl REF.jsonl

A difference is one item of one step whose text differs. It is explained
when an entry of the intended file matches it, unexplained otherwise.
Once a write was accepted on one kernel and refused on the other (item
rc), the two kernels' states have parted: what differs after it in the
same episode is counted as following from it, not judged again; so is
an item that differed before in the episode (a hist file that differs
after one run differs after the next). The next episode starts both
from nothing.

The intended file is a list of entries, each a block of lines
"key: value" after a line "[name]":
  item:   regular expression the item's name must match (rc, err, rb,
          hist:EVENT, format:EVENT, trace, reset)
  text:   (optional) one the step's command must match
  ours:   (optional) one our side's text must match (search)
  ref:    (optional) one the reference's text must match (search)
  ext:    (optional) yes: only in the episodes that may use what only
          our kernel has (their records say "ext")
  ours.ITEM, ref.ITEM:
          (optional) one that another item of the same step, on that
          side, must match (ours.err: what our error_log said)
  reason: why the two kernels differ there (required)
With --strict, an entry that matched nothing fails the run too.

Exit status 0 when every difference is explained (and, with --strict,
every entry was used).
"""

import argparse
import json
import re
import sys


def load_intended(path):
    entries, cur = [], None
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"^\[([\w.-]+)\]$", line)
            if m:
                cur = {"name": m.group(1), "line": no, "used": 0}
                entries.append(cur)
                continue
            m = re.match(r"^(item|text|ours|ref|reason|ext|(?:ours|ref)\.\w+):"
                         r"\s?(.*)$", line)
            if not m or cur is None:
                sys.exit("%s:%d: not an entry line: %s" % (path, no, line))
            cur[m.group(1)] = m.group(2)
    for e in entries:
        if "item" not in e or not e.get("reason"):
            sys.exit("%s:%d: entry %s needs item: and reason:" %
                     (path, e["line"], e["name"]))
        for k in list(e):
            if k in ("item", "text", "ours", "ref", "ext") or "." in k:
                e[k] = re.compile(e[k], re.S)
    return entries


def explain(entries, item, text, o_out, r_out, ext=False):
    """The first entry that matches the difference in item between our
    record o_out and the reference's r_out, or None."""
    sides = {"ours": o_out, "ref": r_out}
    for e in entries:
        if not e["item"].search(item):
            continue
        if "ext" in e and (e["ext"].search("yes") is not None) != ext:
            continue
        if "text" in e and not e["text"].search(text or ""):
            continue
        if any(not e[k].search(sides[k].get(item, ""))
               for k in ("ours", "ref") if k in e):
            continue
        if any(not e[k].search(sides[k.split(".")[0]].get(
                k.split(".", 1)[1], ""))
               for k in e if "." in k):
            continue
        e["used"] += 1
        return e
    return None


def read(path):
    try:
        with open(path) as f:
            return [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        print("diff-check: cannot read %s: %s" % (path, e))
        return None


def clip(s, n=1500):
    return s if len(s) <= n else s[:n] + "\n[... %d more bytes]" % (len(s) - n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", required=True)
    ap.add_argument("--intended", required=True)
    ap.add_argument("--report")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--show", type=int, default=3,
                    help="unexplained differences printed in full")
    ap.add_argument("ours")
    ap.add_argument("ref")
    a = ap.parse_args()
    entries = load_intended(a.intended)
    ours, ref = read(a.ours), read(a.ref)
    if ours is None or ref is None:
        print("diff-check: 0 steps, 0 differences explained, 1 unexplained "
              "(seed %s)" % a.seed)
        return 1

    explained = unexplained = followers = 0
    shown = 0
    report = []
    parted = {}     # episode -> the items that differed in it ("*": all)
    trig = trig_ok = 0
    steps = 0
    for i in range(max(len(ours), len(ref))):
        o = ours[i] if i < len(ours) else None
        r = ref[i] if i < len(ref) else None
        if o is None or r is None or o.get("n") != r.get("n") or \
           o.get("text") != r.get("text"):
            unexplained += 1
            print("diff-check: the records part at line %d (seed %s): one "
                  "guest stopped early or the streams differ" % (i + 1, a.seed))
            break
        if o["op"] != "reset":
            steps += 1
        text = o.get("text", "")
        if o["op"] in ("write", "trunc") and text.startswith("hist:"):
            trig += 1
            trig_ok += r["out"].get("rc") == "ok"
        ep = o["ep"]
        # The write's answer first: when it differs, the two kernels'
        # states have parted, and the rest of the episode follows from it.
        items = sorted(set(o["out"]) | set(r["out"]),
                       key=lambda x: (x not in ("rc", "reset"), x))
        for item in items:
            ov, rv = o["out"].get(item, ""), r["out"].get(item, "")
            if ov == rv:
                continue
            where = "step %d (episode %d) %s %s %s: %s" % (
                o["n"], ep, o["op"], o.get("path", ""), text, item)
            seen = parted.setdefault(ep, set())
            if "*" in seen or item in seen or (
                    item in ("err", "rb") and "rc" in seen):
                followers += 1
                report.append("  follows: " + where)
                continue
            seen.add("*" if item in ("rc", "reset") else item)
            e = explain(entries, item, text, o["out"], r["out"],
                        bool(o.get("ext")))
            if e:
                explained += 1
                report.append("explained [%s]: %s" % (e["name"], where))
                continue
            unexplained += 1
            block = ("diff-check: unexplained difference, seed %s, %s\n"
                     "--- ours:\n%s\n--- reference:\n%s\n" %
                     (a.seed, where, clip(ov), clip(rv)))
            report.append(block)
            if shown < a.show:
                print(block)
                shown += 1

    unused = [e for e in entries if not e["used"]]
    for e in entries:
        report.append("intended [%s]: matched %d" % (e["name"], e["used"]))
    if a.report:
        with open(a.report, "w") as f:
            f.write("\n".join(report) + "\n")
    print("diff-check: trigger commands valid on the reference: %d of %d "
          "(%.0f%%)" % (trig_ok, trig, 100.0 * trig_ok / max(trig, 1)))
    print("diff-check: %d differences followed from an earlier one in "
          "their episode" % followers)
    rc = 0
    if unused and a.strict:
        for e in unused:
            print("diff-check: intended difference [%s] (%s:%d) matched "
                  "nothing in this run" % (e["name"], a.intended, e["line"]))
        rc = 1
    print("diff-check: %d steps, %d differences explained, %d unexplained "
          "(seed %s)" % (steps, explained, unexplained, a.seed))
    return 1 if unexplained or rc else 0


if __name__ == "__main__":
    sys.exit(main())
