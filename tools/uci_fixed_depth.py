#!/usr/bin/env python3
"""A UCI engine at a fixed search depth (or node count): a rung of the ladder on which
threefold's xiangqi levels are measured (docs/levels/xiangqi/README.md).

Runs ENGINE (a command line) and passes every line both ways, except that each `go ...` the
engine is sent gets `depth N` (`--depth N`) or `nodes N` (`--nodes N`) added to it. The
engine stops at that size or when its clock says, whichever comes first: under a generous
clock the size decides, so the rung plays the same however loaded the machine is; under a
short one it still never loses on time.

  uci_fixed_depth.py --depth 5 /usr/games/fairy-stockfish
"""
import argparse, shlex, subprocess, sys, threading


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    limit = ap.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=int)
    limit.add_argument("--nodes", type=int)
    ap.add_argument("engine", nargs="+", help="the engine's command line")
    args = ap.parse_args()
    cmd = args.engine if len(args.engine) > 1 else shlex.split(args.engine[0])
    limit = f"depth {args.depth}" if args.depth else f"nodes {args.nodes}"
    eng = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def out():
        for line in eng.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    t = threading.Thread(target=out, daemon=True)
    t.start()
    for line in sys.stdin:
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if word == "go":
            # The size first; the clock's words after it, so that both limit the search.
            line = f"go {limit} " + line.split(maxsplit=1)[1] if len(line.split()) > 1 else f"go {limit}\n"
        eng.stdin.write(line)
        eng.stdin.flush()
        if word == "quit":
            break
    eng.stdin.close()
    eng.wait()
    t.join(timeout=1)


if __name__ == "__main__":
    main()
