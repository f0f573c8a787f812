#!/usr/bin/env python3
"""Runs every `tracefig ...` command of the documentation (tests/docs).

    docs.py TRACEFIG DOC...            run the commands of each DOC
    docs.py TRACEFIG --list DOC...     print them, one a line, with their place
    docs.py TRACEFIG --expect-unknown DOC
                                       pass when a command of DOC fails with
                                       "unknown option" (a doctored copy)

A DOC is README.md (its code blocks and `inline code`) or a man page (the
lines of its EXAMPLES section).  A command is a line that starts with
"tracefig " (or "$ tracefig "), with its backslash-continued lines.  Each
runs with sh in one scratch folder, in the documents' order (a command may
read what an earlier one wrote), with the traces it names made there as
tests/docs/files says, and must exit 0 and name no unknown option.
The README's Python snippet (the block that starts "import tracefig") runs
over the built library, and its C snippet, put in a main(), compiles with
-Wall -Werror, links with it and must print an SVG.
Prints "ok", "FAIL" or "SKIP (reason)" per command, then
"N passed, N failed".
"""
import fnmatch
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CMD = re.compile(r'^\s*(?:\$ )?(tracefig\s.*)$')


def roff_text(line):
    """A roff text line as the reader sees it (the escapes examples use)."""
    for a, b in ((r'\-', '-'), (r'\(aq', "'"), (r'\(dq', '"'), (r'\e', '\\'),
                 (r'\&', ''), (r'\[u2026]', '...'), (r'\(mc', 'u'), (r'\ ', ' ')):
        line = line.replace(a, b)
    return re.sub(r'\\f[BIRP]', '', line)


def join_continued(lines):
    """(lineno, text) pairs -> commands, a trailing backslash joining lines."""
    out = []
    cur = None
    for no, text in lines:
        if cur is None:
            m = CMD.match(text)
            if not m:
                continue
            cur = (no, m.group(1))
        else:
            cur = (cur[0], cur[1] + ' ' + text.strip())
        if cur[1].rstrip().endswith('\\'):
            cur = (cur[0], cur[1].rstrip()[:-1].rstrip())
            continue
        out.append(cur)
        cur = None
    if cur:
        out.append(cur)
    return out


def markdown_commands(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    block = []
    fenced = False
    prev_blank = True
    inline = []
    for no, ln in enumerate(lines, 1):
        if ln.startswith('```'):
            fenced = not fenced
            continue
        if fenced or (ln.startswith('    ') and (prev_blank or block and block[-1][0] == no - 1)):
            block.append((no, ln))
        else:
            for m in re.finditer(r'`(tracefig [^`]*)`', ln):
                inline.append((no, m.group(1)))
        prev_blank = ln.strip() == '' or (prev_blank and ln.startswith('    '))
    cmds = join_continued(block) + inline
    return sorted(cmds)


def markdown_blocks(path):
    """The README's indented code blocks: [(first line number, text)]."""
    lines = open(path, encoding='utf-8').read().split('\n')
    blocks = []
    cur = None
    prev_blank = True
    for no, ln in enumerate(lines, 1):
        if ln.startswith('    ') and (prev_blank or cur):
            if cur is None:
                cur = [no, []]
                blocks.append(cur)
            cur[1].append(ln[4:])
        elif ln.strip() == '' and cur:
            cur[1].append('')
        else:
            cur = None
        prev_blank = ln.strip() == ''
    return [(no, '\n'.join(body).strip() + '\n') for no, body in blocks]


def man_commands(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    keep = []
    inside = False
    for no, ln in enumerate(lines, 1):
        if ln.startswith('.SH'):
            inside = ln.strip() in ('.SH EXAMPLES', '.SH EXAMPLE', '.SH "EXAMPLES"')
            continue
        if inside and not ln.startswith('.') and not ln.startswith("'"):
            keep.append((no, roff_text(ln)))
    return join_continued(keep)


def commands(doc):
    if doc.endswith('.md'):
        return markdown_commands(doc)
    return man_commands(doc)


def read_files():
    table = []
    for ln in open(os.path.join(HERE, 'files'), encoding='utf-8'):
        if not ln.strip() or ln.startswith('#'):
            continue
        name, how, rest = (ln.rstrip('\n').split(None, 2) + ['', ''])[:3]
        table.append((name, how, rest))
    return table


def read_pending():
    out = {}
    for ln in open(os.path.join(HERE, 'pending'), encoding='utf-8'):
        if ln.strip() and not ln.startswith('#'):
            opt, why = (ln.split(None, 1) + [''])[:2]
            out[opt] = why.strip()
    return out


class Runner:
    def __init__(self, tracefig):
        self.bin = os.path.abspath(tracefig)
        self.scratch = tempfile.mkdtemp(prefix='tracefig-docs.')
        self.bindir = os.path.join(self.scratch, '.bin')
        os.mkdir(self.bindir)
        os.symlink(self.bin, os.path.join(self.bindir, 'tracefig'))
        self.work = os.path.join(self.scratch, 'w')
        os.mkdir(self.work)
        self.files = read_files()
        self.pending = read_pending()
        self.made = {}
        real = os.environ.get('REAL_TRACES', os.path.join(ROOT, '..', 'shared', 'real-traces'))
        self.real = real if os.path.isdir(real) else None
        helptext = subprocess.run([self.bin, '--help'], capture_output=True, text=True).stdout
        self.known = set(re.findall(r'--[a-z][a-z0-9-]*', helptext))
        self.env = dict(os.environ, PATH=self.bindir + os.pathsep + os.environ.get('PATH', ''),
                        root=ROOT, py='/usr/bin/python3' if os.path.exists('/usr/bin/python3') else sys.executable,
                        LC_ALL='C')

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def make(self, name, how, rest):
        """Makes NAME; returns None, or the reason the command is skipped."""
        if name in self.made:
            return self.made[name]
        why = None
        if how == 'example':
            shutil.copy(os.path.join(ROOT, 'examples', rest), os.path.join(self.work, name))
        elif how == 'gen':
            r = subprocess.run(['sh', '-c', rest], cwd=self.work, env=self.env,
                               capture_output=True, text=True)
            if r.returncode != 0:
                why = 'FAIL: making %s: %s' % (name, (r.stderr.strip() or 'exit %d' % r.returncode)[:300])
        elif how == 'real':
            if not self.real:
                why = 'SKIP (%s is a third-party trace: no ../shared/real-traces)' % name
            else:
                link = name.split('/')[0]
                if not os.path.lexists(os.path.join(self.work, link)):
                    os.symlink(os.path.join(os.path.abspath(self.real), rest),
                               os.path.join(self.work, link))
        else:
            why = 'FAIL: tests/docs/files: %s: unknown source %r' % (name, how)
        self.made[name] = why
        return why

    def make_named(self, code):
        """Makes the traces CODE names in quotes; returns a reason or None."""
        for name, how, rest in self.files:
            if '"%s"' % name in code:
                why = self.make(name, how, rest)
                if why:
                    return why
        return None

    def sanitized(self):
        """A sanitizer build's library loads only into programs built with it."""
        flags = os.path.join(os.path.dirname(self.bin), 'flags')
        return os.path.exists(flags) and 'fsanitize' in open(flags).read()

    def run_python(self, code):
        if self.sanitized():
            return 'SKIP', '(a sanitizer build: its library loads only into programs built with it)'
        why = self.make_named(code)
        if why:
            return ('FAIL', why) if why.startswith('FAIL') else ('SKIP', why[5:])
        lib = os.path.join(os.path.dirname(self.bin), 'libtracefig.so.0')
        if not os.path.exists(lib):
            return 'SKIP', '(no %s: make lib)' % lib
        env = dict(self.env, PYTHONPATH=os.path.join(ROOT, 'python'), TRACEFIG_LIB=lib)
        r = subprocess.run([self.env['py'], '-c', code], cwd=self.work, env=env,
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            return 'FAIL', (r.stderr.strip().split('\n') or [''])[-1]
        return 'ok', ''

    def run_c(self, code):
        if self.sanitized():
            return 'SKIP', '(a sanitizer build: its library loads only into programs built with it)'
        why = self.make_named(code)
        if why:
            return ('FAIL', why) if why.startswith('FAIL') else ('SKIP', why[5:])
        cc = shutil.which('cc')
        libdir = os.path.dirname(self.bin)
        if not cc or not os.path.exists(os.path.join(libdir, 'libtracefig.so')):
            return 'SKIP', '(no cc, or no libtracefig.so beside tracefig: make lib)'
        src = os.path.join(self.scratch, 'snippet.c')
        exe = os.path.join(self.scratch, 'snippet')
        with open(src, 'w') as f:
            f.write('#include <stdio.h>\n#include <tracefig.h>\n\nint main(void)\n{\n'
                    + code + '    return 0;\n}\n')
        r = subprocess.run([cc, '-std=c11', '-Wall', '-Werror', '-Wno-unused-variable',
                            '-I', os.path.join(ROOT, 'src'), '-o', exe, src, '-L', libdir,
                            '-ltracefig', '-Wl,-rpath,' + libdir],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return 'FAIL', 'does not compile: ' + r.stderr.strip().split('\n')[0]
        r = subprocess.run([exe], cwd=self.work, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0 or not r.stdout.startswith(b'<svg') and b'<svg' not in r.stdout[:200]:
            return 'FAIL', 'exit %d, no SVG on standard output' % r.returncode
        return 'ok', ''

    def run(self, where, cmd):
        """Returns (status, text): status 'ok', 'FAIL' or 'SKIP'."""
        try:
            words = shlex.split(cmd, comments=True)
        except ValueError as e:
            return 'FAIL', 'cannot split the command: %s' % e
        if '$' in cmd.split('>')[0]:
            return 'SKIP', '(a line of a script: its variables are the script\'s)'
        for w in words:
            opt = w.split('=', 1)[0]
            if opt.startswith('--') and opt not in self.known and opt in self.pending:
                return 'SKIP', '(%s: not in this tracefig yet, %s)' % (opt, self.pending[opt])
        for w in words:
            for name, how, rest in self.files:
                if w == name:
                    why = self.make(name, how, rest)
                    if why:
                        return why.split(':', 1)[0] if why.startswith('FAIL') else 'SKIP', \
                            why if why.startswith('FAIL') else why[5:]
        try:
            r = subprocess.run(['sh', '-c', cmd], cwd=self.work, env=self.env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               timeout=600)
        except subprocess.TimeoutExpired:
            return 'FAIL', 'no end in 600 s'
        err = r.stderr.strip()
        if 'unknown option' in err:
            return 'FAIL', 'unknown option: ' + err.split('\n')[0]
        if r.returncode != 0:
            return 'FAIL', 'exit %d: %s' % (r.returncode, err.split('\n')[0] if err else '')
        return 'ok', ''


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    mode = 'run'
    args = argv[2:]
    if args[0] in ('--list', '--expect-unknown'):
        mode = args.pop(0)
    if mode == '--list':
        for doc in args:
            for no, cmd in commands(doc):
                print('%s:%d: %s' % (os.path.relpath(doc, ROOT), no, cmd))
        return 0
    runner = Runner(argv[1])
    passed = failed = 0
    try:
        for doc in args:
            for no, cmd in commands(doc):
                where = '%s:%d' % (os.path.relpath(doc, ROOT), no)
                status, text = runner.run(where, cmd)
                if mode == '--expect-unknown':
                    if status == 'FAIL' and text.startswith('unknown option'):
                        print('ok %s: the doctored command fails: %s' % (where, text))
                        print('1 passed, 0 failed')
                        return 0
                    continue
                if status == 'ok':
                    passed += 1
                    print('ok %s: %s' % (where, cmd))
                elif status == 'SKIP':
                    print('SKIP %s %s: %s' % (text, where, cmd))
                else:
                    failed += 1
                    print('FAIL %s: %s\n    %s' % (where, cmd, text))
        # The README's Python and C snippets run too (after the commands,
        # whose traces they may read).
        for doc in args if mode == 'run' else []:
            if not doc.endswith('.md'):
                continue
            for no, code in markdown_blocks(doc):
                if code.startswith('import tracefig'):
                    kind, status, text = 'Python', *runner.run_python(code)
                elif 'tracefig_options_new' in code:
                    kind, status, text = 'C', *runner.run_c(code)
                else:
                    continue
                where = '%s:%d' % (os.path.relpath(doc, ROOT), no)
                if status == 'ok':
                    passed += 1
                    print('ok %s: the %s snippet runs' % (where, kind))
                elif status == 'SKIP':
                    print('SKIP %s %s: the %s snippet' % (text, where, kind))
                else:
                    failed += 1
                    print('FAIL %s: the %s snippet: %s' % (where, kind, text))
    finally:
        runner.close()
    if mode == '--expect-unknown':
        print('FAIL %s: no command failed with an unknown option' % ' '.join(args))
        print('0 passed, 1 failed')
        return 1
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
