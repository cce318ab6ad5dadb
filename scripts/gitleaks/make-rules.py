#!/usr/bin/env python3
"""Carries gitleaks' published rules into Oda Admin as data (issue 26).

Run once per gitleaks release, from a clone (or bare mirror) of
https://github.com/gitleaks/gitleaks:

    python3 scripts/gitleaks/make-rules.py GITLEAKS_GIT_DIR

It writes
  lib/bundle/rules/gitleaks.json        every rule of config/gitleaks.toml, its
                                        Go RE2 pattern translated to a JavaScript
                                        one, with keywords, entropy, secret group
                                        and allowlists, and gitleaks' MIT notice;
  test-support/bundle/fixtures/gitleaks-examples.json
                                        the true-positive examples of gitleaks'
                                        own rule tests (cmd/generate/config/rules/*.go),
                                        literal ones as written and generated ones
                                        (secrets.NewSecret(pattern)) drawn once with
                                        a fixed seed, for lib/bundle/gitleaks.test.ts.
"""
import json
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

try:
    import re._parser as sre_parse  # Python 3.11+
    from re._constants import (ANY, AT, BRANCH, CATEGORY, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, NEGATE, NOT_LITERAL,
                               RANGE, SUBPATTERN, CATEGORY_DIGIT, CATEGORY_WORD, CATEGORY_SPACE)
except ImportError:  # pragma: no cover
    import sre_parse
    from sre_constants import (ANY, AT, BRANCH, CATEGORY, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, NEGATE, NOT_LITERAL,
                               RANGE, SUBPATTERN, CATEGORY_DIGIT, CATEGORY_WORD, CATEGORY_SPACE)

ROOT = Path(__file__).resolve().parents[2]


def git_show(git_dir, path):
    return subprocess.run(["git", "-C", git_dir, "show", f"HEAD:{path}"], check=True, capture_output=True).stdout.decode()


# ---------------------------------------------------------------- Go RE2 -> JavaScript

POSIX = {
    "alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "lower": "a-z", "upper": "A-Z",
    "space": r"\t\n\v\f\r ", "xdigit": "0-9A-Fa-f", "word": r"\w", "punct": r"!-\/:-@\[-`{-~",
    "ascii": r"\x00-\x7F", "blank": r" \t", "cntrl": r"\x00-\x1F\x7F", "graph": r"!-~", "print": r" -~",
}


def swap_case_class(items):
    """Items of a character class (strings), with the other case of every letter and letter range added."""
    out = list(items)
    for it in items:
        m = re.fullmatch(r"([a-zA-Z])-([a-zA-Z])", it)
        if m and m.group(1).isalpha() and m.group(1).islower() == m.group(2).islower():
            a, b = m.group(1), m.group(2)
            out.append(f"{a.swapcase()}-{b.swapcase()}")
        elif len(it) == 1 and it.isalpha():
            out.append(it.swapcase())
    return out


def translate(go):
    """A JavaScript regex source for a Go RE2 pattern: inline flags are applied by hand (Node 20 has no
    `(?i:…)`), POSIX classes spelt out, `(?P<n>` renamed. Returns (source, needs_unicode)."""
    out = []
    stack = []  # (ci, dotall) of enclosing groups
    ci, dotall = False, False
    unicode = False
    i = 0
    n = len(go)
    while i < n:
        c = go[i]
        if c == "\\":
            nx = go[i + 1]
            if nx == "z":
                out.append("$")
            elif nx == "A":
                out.append("^")
            elif nx in "pP":
                unicode = True
                j = go.index("}", i) + 1 if go[i + 2] == "{" else i + 3
                out.append(go[i:j])
                i = j
                continue
            elif nx == "x" and go[i + 2] == "{":
                j = go.index("}", i)
                out.append("\\u{" + go[i + 3:j] + "}")
                unicode = True
                i = j + 1
                continue
            elif ci and nx.isalpha() and nx not in "wWdDsSbBnrtfvx":
                out.append(f"[{nx.lower()}{nx.upper()}]")
            else:
                out.append(go[i:i + 2])
            i += 2
            continue
        if c == "[":
            j = i + 1
            neg = ""
            if j < n and go[j] == "^":
                neg = "^"
                j += 1
            items = []
            first = True
            while j < n and (go[j] != "]" or first):
                first = False
                if go.startswith("[:", j):
                    k = go.index(":]", j)
                    name = go[j + 2:k]
                    items.append(POSIX[name])
                    j = k + 2
                    continue
                if go[j] == "\\":
                    item = go[j:j + 2]
                    j += 2
                else:
                    item = go[j]
                    j += 1
                if j + 1 < n and go[j] == "-" and go[j + 1] != "]":
                    hi = go[j + 1:j + 3] if go[j + 1] == "\\" else go[j + 1]
                    item = f"{item}-{hi}"
                    j += 1 + len(hi)
                if item == "[":
                    item = "\\["
                elif item == "-":
                    item = "\\-"
                items.append(item)
            if ci:
                items = swap_case_class(items)
            out.append("[" + neg + "".join(items) + "]")
            i = j + 1
            continue
        if c == "(":
            if go.startswith("(?", i):
                m = re.match(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?(\)|:)", go[i:])
                if m:
                    on, off, end = m.group(1), m.group(2) or "", m.group(3)
                    nci = (ci or "i" in on) and "i" not in off
                    nds = (dotall or "s" in on) and "s" not in off
                    if end == ")":
                        ci, dotall = nci, nds
                    else:
                        stack.append((ci, dotall))
                        ci, dotall = nci, nds
                        out.append("(?:")
                    i += len(m.group(0))
                    continue
                if go.startswith("(?P<", i):
                    stack.append((ci, dotall))
                    out.append("(?<")
                    i += 4
                    continue
            stack.append((ci, dotall))
            out.append("(")
            i += 1
            continue
        if c == ")":
            ci, dotall = stack.pop() if stack else (ci, dotall)
            out.append(")")
            i += 1
            continue
        if c == "." and dotall:
            out.append("[\\s\\S]")
            i += 1
            continue
        if ci and c.isalpha():
            out.append(f"[{c.lower()}{c.upper()}]")
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out), unicode


def make_rules(git_dir):
    toml = tomllib.loads(git_show(git_dir, "config/gitleaks.toml"))
    licence = git_show(git_dir, "LICENSE")
    commit = subprocess.run(["git", "-C", git_dir, "rev-parse", "HEAD"], check=True, capture_output=True).stdout.decode().strip()

    def allow(a):
        regexes = []
        for r in a.get("regexes", []):
            src, u = translate(r)
            regexes.append({"source": src, "unicode": u})
        return {
            "target": a.get("regexTarget", "secret"),
            "condition": a.get("condition", "OR"),
            "regexes": regexes,
            "stopwords": [w.lower() for w in a.get("stopwords", [])],
        }

    rules = []
    skipped = []
    for r in toml["rules"]:
        if "regex" not in r:
            skipped.append(r["id"])  # a rule on file names only
            continue
        src, u = translate(r["regex"])
        rules.append({
            "id": r["id"],
            "regex": src,
            "unicode": u,
            "entropy": r.get("entropy", 0),
            "secretGroup": r.get("secretGroup", 0),
            "keywords": [k.lower() for k in r.get("keywords", [])],
            # An allowlist that also needs a path or a commit (condition AND) never applies to a bundle's texts.
            "allowlists": [allow(a) for a in r.get("allowlists", []) if (a.get("regexes") or a.get("stopwords"))
                           and not (a.get("condition") == "AND" and (a.get("paths") or a.get("commits")))],
        })
    g = toml.get("allowlist", {})
    data = {
        "about": "Generated by scripts/gitleaks/make-rules.py from gitleaks' config/gitleaks.toml; do not edit.",
        "source": {"repository": "https://github.com/gitleaks/gitleaks", "commit": commit},
        "licence": licence,
        "allowlist": allow({"regexes": g.get("regexes", []), "stopwords": g.get("stopwords", [])}),
        "rules": rules,
        "skipped": skipped,
    }
    out = ROOT / "lib/bundle/rules/gitleaks.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    # laid out as the repository's formatter keeps JSON (`npm run lint` checks it)
    subprocess.run(["npx", "biome", "format", "--write", str(out)], check=True, cwd=ROOT, capture_output=True)
    print(f"{len(rules)} rules, {len(skipped)} on paths only, written to {out.relative_to(ROOT)}")


# ---------------------------------------------------------------- the rule tests' true positives

rng = random.Random(26)


def draw(pattern):
    """One random string matching `pattern` (the subset regen handles: literals, classes, groups, repeats)."""
    def gen(tree):
        s = []
        for op, av in tree:
            if op == LITERAL:
                s.append(chr(av))
            elif op == ANY:
                s.append(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789"))
            elif op == IN:
                s.append(pick_in(av))
            elif op == SUBPATTERN:
                s.append(gen(av[-1]))
            elif op == BRANCH:
                s.append(gen(rng.choice(av[1])))
            elif op in (MAX_REPEAT, MIN_REPEAT):
                lo, hi, sub = av
                hi = min(hi, lo + 8) if hi != sre_parse.MAXREPEAT else lo + 8
                s.append("".join(gen(sub) for _ in range(rng.randint(lo, hi))))
            elif op == AT:
                pass
            elif op == CATEGORY:
                s.append(pick_cat(av))
            else:
                raise ValueError(f"cannot draw {op}")
        return "".join(s)

    categories = {CATEGORY_DIGIT: "0123456789", CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
                  CATEGORY_SPACE: " "}

    def pick_cat(cat):
        return rng.choice(categories[cat])

    def pick_in(items):
        chars = []
        for op, av in items:
            if op == NEGATE:
                raise ValueError("negated class")
            if op == LITERAL:
                chars.append(chr(av))
            elif op == RANGE:
                chars.extend(chr(x) for x in range(av[0], av[1] + 1))
            elif op == CATEGORY:
                # every character of the category, each as likely as any other of the class
                chars.extend(categories[av])
        return rng.choice(chars)

    return gen(sre_parse.parse(pattern.replace("(?i)", "")))


SAMPLE = '{i}_token: "{s}"'


def go_tokens(src):
    pos = 0
    spec = re.compile(r'\s+|//[^\n]*|"(?:[^"\\\n]|\\.)*"|`[^`]*`|\.\.\.|[A-Za-z_][A-Za-z0-9_.]*|\d+|[()\[\]{},+:=]')
    out = []
    while pos < len(src):
        m = spec.match(src, pos)
        if not m:
            raise ValueError(f"cannot read {src[pos:pos + 20]!r}")
        t = m.group(0)
        pos = m.end()
        if t.strip() and not t.startswith("//"):
            out.append(t)
    return out


class Eval:
    """A tiny evaluator for the expressions gitleaks' rule tests build their examples with."""

    def __init__(self, toks, env):
        self.t, self.i, self.env = toks, 0, env

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        t = self.t[self.i]
        if want is not None and t != want:
            raise ValueError(f"wanted {want}, got {t}")
        self.i += 1
        return t

    def expr(self):
        v = self.term()
        while self.peek() == "+":
            self.take()
            v = v + self.term()
        return v

    def args(self):
        self.take("(")
        out = []
        while self.peek() != ")":
            a = self.expr()
            if self.peek() == "...":
                self.take()
                out.extend(a)
            else:
                out.append(a)
            if self.peek() == ",":
                self.take()
        self.take(")")
        return out

    def term(self):
        t = self.take()
        if t.startswith('"'):
            return json.loads(t)
        if t.startswith("`"):
            return t[1:-1]
        if t == "[":
            self.take("]")
            self.take("string")
            self.take("{")
            out = []
            while self.peek() != "}":
                out.append(self.expr())
                if self.peek() == ",":
                    self.take()
            self.take("}")
            return out
        if self.peek() == "(":
            a = self.args()
            f = t.split(".")[-1]
            size = lambda: a[0]
            table = {
                "Numeric": lambda: f"[0-9]{{{size()}}}", "Hex": lambda: f"[a-f0-9]{{{size()}}}",
                "AlphaNumeric": lambda: f"[a-z0-9]{{{size()}}}", "AlphaNumericExtendedShort": lambda: f"[a-z0-9_-]{{{size()}}}",
                "AlphaNumericExtended": lambda: f"[a-z0-9=_\\-]{{{size()}}}", "AlphaNumericExtendedLong": lambda: f"[a-z0-9\\/=_\\+\\-]{{{size()}}}",
                "Hex8_4_4_4_12": lambda: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                "NewSecret": lambda: draw(a[0]), "GenerateSampleSecrets": lambda: [SAMPLE.replace("{i}", a[0]).replace("{s}", a[1])],
                "GenerateSampleSecret": lambda: f'{a[0]}_api_token = "{a[1]}"', "append": lambda: [x for v in a for x in (v if isinstance(v, list) else [v])],
                "Repeat": lambda: a[0] * int(a[1]), "Itoa": lambda: str(a[0]), "ToUpper": lambda: a[0].upper(), "ToLower": lambda: a[0].lower(),
            }
            if f not in table:
                raise ValueError(f"unknown function {t}")
            return table[f]()
        if t.isdigit():
            return int(t)
        if t in self.env:
            return self.env[t]
        raise ValueError(f"unknown name {t}")


def statement_at(body, start):
    """The statement starting at `start`: up to the newline where every bracket is closed."""
    depth = 0
    i = start
    in_str = None
    while i < len(body):
        c = body[i]
        if in_str:
            if c == "\\" and in_str == '"':
                i += 2
                continue
            if c == in_str:
                in_str = None
        elif c in '"`':
            in_str = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "\n" and depth == 0:
            return body[start:i]
        i += 1
    return body[start:]


def make_examples(git_dir):
    files = subprocess.run(["git", "-C", git_dir, "ls-tree", "--name-only", "HEAD", "cmd/generate/config/rules/"],
                           check=True, capture_output=True).stdout.decode().split()
    examples = []
    failed = 0
    for f in sorted(files):
        if not f.endswith(".go") or f.endswith("_test.go"):
            continue
        src = git_show(git_dir, f)
        for body in re.split(r"\nfunc ", src)[1:]:
            ids = re.findall(r'RuleID:\s*"([^"]+)"', body)
            if not ids:
                continue
            rule = ids[0]
            env = {"tps": []}
            for m in re.finditer(r"^\s*(?:var\s+)?([A-Za-z_]\w*)\s*:?=\s*", body, re.M):
                name = m.group(1)
                if name in ("r", "fps", "rule"):
                    continue
                text = statement_at(body, m.end())
                try:
                    v = Eval(go_tokens(text), env).expr()
                except Exception:
                    if name == "tps":
                        failed += 1
                    continue
                if name == "tps":
                    env["tps"] = v if isinstance(v, list) else [v]
                elif isinstance(v, (str, list)):
                    env[name] = v
            for text in env["tps"]:
                if isinstance(text, str) and text:
                    examples.append({"rule": rule, "text": text})
    out = ROOT / "test-support/bundle/fixtures/gitleaks-examples.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"about": "Generated by scripts/gitleaks/make-rules.py from gitleaks' rule tests (MIT, see lib/bundle/rules/gitleaks.json); do not edit.", "examples": examples}, indent=1) + "\n")
    print(f"{len(examples)} examples of {len({e['rule'] for e in examples})} rules ({failed} statements not read), written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    make_rules(sys.argv[1])
    make_examples(sys.argv[1])
