"""How each match game that pyffish ended as a repetition ended, by threefold's judge.

pyffish's is_optional_game_end also ends a xiangqi game by the fifty-move rule (100 plies
without a capture), which Fairy-Stockfish's xiangqi applies; xq_match.py calls every such draw
a "repetition draw". The judge (third occurrence) tells them apart and names the violation.
Usage: python3 tools/xq_match_rulings.py THREEFOLD GAMES_FILE...   (files from xq_match.py --games-out)
"""
import sys, subprocess, json, re
binary = sys.argv[1]
def conv(m):
    mm = re.match(r"([a-i])(\d+)([a-i])(\d+)", m); return f"{mm[1]}{int(mm[2])-1}{mm[3]}{int(mm[4])-1}"
for path in sys.argv[2:]:
    for i, line in enumerate(open(path), 1):
        res, rest = line.split(" ", 1)
        reason, moves = rest.split(";", 1)
        if "repetition" not in reason: continue
        moves = moves.split()
        ms = " ".join(conv(m) for m in moves)
        j = json.loads(subprocess.run([binary, "xiangqi", "judge", "--moves", ms, "--ntimes", "2", "--json"], capture_output=True, text=True).stdout)
        engine_red = (i % 2 == 1)  # xq_match alternates colours: odd games the engine is red
        if j["result"] == "undecided":
            what = "no repetition: the fifty-move rule (100 plies without a capture)"
        else:
            what = f"{j['result']} for {j['side']} to move; red {j['red']['level']}, black {j['black']['level']}"
        print(f"{path.split('/')[-1]} game {i} (engine {'red' if engine_red else 'black'}): engine scored {res} ({reason.strip()}), {len(moves)} plies; judge: {what}")
