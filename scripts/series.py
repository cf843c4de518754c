#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build the patch series that scripts/series describes, as commits.

    series.py GIT_DIR SOURCE START EXPECTED_TREE

GIT_DIR is the base tree's repository; SOURCE a commit of this
repository fetched into it; START the commit the series goes on (the
pristine tree).  Each patch of scripts/series (as SOURCE has it) becomes
a commit on START: the files of ours it names, taken from SOURCE, the
files of patches/ it applies, and the lines of our MAINTAINERS entry
that name the files brought in so far.  The last commit's tree must be
EXPECTED_TREE, the tree build/src-ours is built from.  Prints the id of
the last commit; any mistake in the description is an error.
"""

import fnmatch
import os
import re
import subprocess
import sys

OVERLAY_DIRS = ["kernel", "include", "Documentation", "tools/testing"]
IDENT = ("Hist Series Team", "hist-series@localhost")
DATE = "2024-11-17 00:00:00 +0000"
SIGNOFF = "Signed-off-by: %s <%s>" % IDENT


def fail(msg):
    sys.exit("series: " + msg)


class Git:
    def __init__(self, git_dir, index):
        self.env = dict(os.environ, GIT_DIR=git_dir, GIT_INDEX_FILE=index,
                        GIT_AUTHOR_NAME=IDENT[0], GIT_AUTHOR_EMAIL=IDENT[1],
                        GIT_COMMITTER_NAME=IDENT[0],
                        GIT_COMMITTER_EMAIL=IDENT[1],
                        GIT_AUTHOR_DATE=DATE, GIT_COMMITTER_DATE=DATE)

    def __call__(self, *args, data=None, binary=False):
        r = subprocess.run(["git"] + list(args), env=self.env,
                           input=data, capture_output=True, check=False)
        if r.returncode:
            fail("git %s: %s" % (" ".join(args[:3]),
                                 r.stderr.decode(errors="replace").strip()))
        return r.stdout if binary else r.stdout.decode()


def parse(text):
    """The patches of a series description, as dicts."""
    patches = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("#") or (not line.strip() and not patches):
            continue
        if line.startswith("patch:"):
            patches.append({"subject": line[6:].strip(), "files": [],
                            "apply": [], "diff": [], "body": [], "line": n})
        elif not patches:
            fail("line %d: text before the first patch:" % n)
        elif line.startswith("files:"):
            patches[-1]["files"] += line[6:].split()
        elif line.startswith("apply:"):
            patches[-1]["apply"] += line[6:].split()
        elif line.startswith("diff:"):
            patches[-1]["diff"] += line[5:].split()
        elif line.startswith("\t") or not line.strip():
            patches[-1]["body"].append(line[1:])
        else:
            fail("line %d: not understood: %s" % (n, line))
    for p in patches:
        while p["body"] and not p["body"][-1].strip():
            p["body"].pop()
        if p["subject"] == "-" and (len(p["apply"]) != 1 or p["body"] or
                                    p["diff"]):
            fail("line %d: \"patch: -\" takes one file of patches/ and no "
                 "message" % p["line"])
        if p["subject"] != "-" and not p["body"]:
            fail("line %d: %s: no message" % (p["line"], p["subject"]))
    return patches


def glob_match(pattern, path):
    """A pattern of scripts/series or an F: line of MAINTAINERS."""
    if pattern.endswith("/"):
        return path.startswith(pattern)
    rx = fnmatch.translate(pattern).replace(".*", "[^/]*")
    return re.match(rx, path) is not None


def message_of_patch_file(git, text):
    """Subject and body of a format-patch file, as git am would take them."""
    tmp = os.environ.get("TMPDIR", "/tmp") + "/series-msg.%d" % os.getpid()
    info = git("mailinfo", tmp, tmp + ".patch", data=text.encode())
    with open(tmp) as f:
        body = f.read().rstrip("\n")
    os.unlink(tmp)
    os.unlink(tmp + ".patch")
    subject = re.search(r"^Subject: (.*)$", info, re.M).group(1)
    return subject, body


def files_before_diffs(git_dir, git, source, ours, diffs):
    """Our files as they were before the diffs of the series: each one,
    from the last to the first, taken back out of the files as SOURCE
    has them.  A file a diff makes is not there at all."""
    if not diffs:
        return ours
    undo = Git(git_dir, git_dir + "/series-undo.index")
    undo("read-tree", "--empty")
    for f, (mode, _, blob) in ours.items():
        undo("update-index", "--add", "--cacheinfo",
             "%s,%s,%s" % (mode, blob, f))
    for d in reversed(diffs):
        text = git("cat-file", "blob", "%s:%s" % (source, d))
        undo("apply", "--cached", "-R", "-", data=text.encode())
    tree = undo("write-tree").strip()
    early = undo("ls-tree", "-r", tree, "--", *OVERLAY_DIRS).splitlines()
    return {l.split("\t", 1)[1]: l.split()[:3] for l in early}


def maintainers_entry(entry, brought):
    """Our entry, with only the F: lines that name a file brought in."""
    out = []
    for line in entry:
        if line.startswith("F:\t"):
            pat = line[3:].strip()
            if not any(glob_match(pat, f) for f in brought):
                continue
        out.append(line)
    return out


def insert_entry(maintainers, entry):
    """MAINTAINERS with entry put before the first entry sorting after it."""
    lines = maintainers.split("\n")
    title = entry[0].upper()
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("Maintainers List"))
    for i in range(start + 1, len(lines) - 1):
        if (lines[i - 1] == "" and re.match(r"[A-Z]:\t", lines[i + 1]) and
                lines[i].upper() > title):
            return "\n".join(lines[:i] + entry + [""] + lines[i:])
    fail("no place for our MAINTAINERS entry")
    return None


def main():
    git_dir, source, start, expected = sys.argv[1:5]
    git = Git(git_dir, git_dir + "/series.index")
    patches = parse(git("cat-file", "blob", source + ":scripts/series"))
    ours = git("ls-tree", "-r", source, "--", *OVERLAY_DIRS).splitlines()
    ours = {l.split("\t", 1)[1]: l.split()[:3] for l in ours}
    queue = git("ls-tree", "--name-only", source, "patches/").split()
    queue = sorted(p for p in queue if p.endswith(".patch"))
    entry = [l for l in git("cat-file", "blob", source + ":MAINTAINERS")
             .rstrip("\n").split("\n") if not l.startswith("#")]
    pristine_maintainers = git("cat-file", "blob", start + ":MAINTAINERS")

    diffs = [d for p in patches for d in p["diff"]]
    early = files_before_diffs(git_dir, git, source, ours, diffs)
    owner = {}
    brought = []
    commit = start
    git("read-tree", start)
    for p in patches:
        where = "line %d (%s)" % (p["line"], p["subject"])
        files = []
        for pat in p["files"]:
            hits = [f for f in early if glob_match(pat, f)]
            if not hits:
                fail("%s: %s names none of our files" % (where, pat))
            for f in hits:
                if f in owner:
                    fail("%s: %s is already in %s" % (where, f, owner[f]))
                owner[f] = where
                files.append(f)
        for f in sorted(files):
            mode, _, blob = early[f]
            git("update-index", "--add", "--cacheinfo",
                "%s,%s,%s" % (mode, blob, f))
        for d in p["diff"]:
            text = git("cat-file", "blob", "%s:%s" % (source, d))
            git("apply", "--cached", "-", data=text.encode())
            made = re.findall(r"^diff --git a/\S+ b/(\S+)\nnew file mode",
                              text, re.M)
            for f in made:
                if f in owner:
                    fail("%s: %s makes %s, already in %s" %
                         (where, d, f, owner[f]))
                owner[f] = where
                files.append(f)
        brought += files
        subject, body = p["subject"], "\n".join(p["body"])
        for a in p["apply"]:
            if not queue or queue[0] != a:
                fail("%s: %s is not the next of patches/ (%s)" %
                     (where, a, queue[0] if queue else "none left"))
            queue.pop(0)
            text = git("cat-file", "blob", "%s:%s" % (source, a))
            git("apply", "--cached", "-", data=text.encode())
            if subject == "-":
                subject, body = message_of_patch_file(git, text)
        if files:
            mine = maintainers_entry(entry, brought)
            blob = git("hash-object", "-w", "--stdin",
                       data=insert_entry(pristine_maintainers,
                                         mine).encode()).strip()
            git("update-index", "--cacheinfo", "100644,%s,MAINTAINERS" % blob)
        body = body.rstrip("\n")
        if not body.endswith(SIGNOFF):
            body += "\n\n" + SIGNOFF
        tree = git("write-tree").strip()
        commit = git("commit-tree", tree, "-p", commit,
                     data=(subject + "\n\n" + body + "\n").encode()).strip()
    missing = sorted(set(ours) - set(owner))
    if missing:
        fail("files of ours in no patch: " + " ".join(missing))
    if queue:
        fail("patches/ files in no patch: " + " ".join(queue))
    tree = git("rev-parse", commit + "^{tree}").strip()
    if tree != expected:
        diff = git("diff", "--stat", expected, tree)
        fail("the series does not end in the tree of build/src-ours:\n" + diff)
    print(commit)


if __name__ == "__main__":
    main()
