// Judges a scripted JDF game with the engine archive under Pyodide, as the referee's phone
// does offline (issue #19); tests/games/test_the_engine_runs_under_pyodide.py compares the
// verdicts with the server's.
//
//   node pyodide_judge.mjs <pyodide package dir> <engine.zip>  < {"hands": [...], "moves": [...]}
//
// A move is {"seat": n, "play": "3S 3H"} or {"seat": n, "pass": true}. Prints one JSON line:
// {"engine": ENGINE_BUILD, "platform": sys.platform, "verdicts": [{"events": [...]} or
// {"code": ..., "message_ja": ...}, ...]}.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, archivePath] = process.argv.slice(2);
const script = readFileSync(0, "utf-8");

const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
// Anything Python prints goes to stderr: stdout carries only the verdicts.
const pyodide = await loadPyodide({
  stdout: (line) => process.stderr.write(`${line}\n`),
});
// A Node Buffer is not what unpackArchive accepts: it needs a plain Uint8Array.
pyodide.unpackArchive(new Uint8Array(readFileSync(archivePath)), "zip", {
  extractDir: "/home/pyodide/kakumei",
});
pyodide.globals.set("script_json", script);
const verdicts = pyodide.runPython(`
import json
import os
import sys

sys.path.insert(0, "/home/pyodide/kakumei")
# A phone never has a mypyc build; say so rather than let the loader look for one.
os.environ["KAKUMEI_ENGINE"] = "pure"

from games.engine import ENGINE_BUILD, JDF, IllegalMove, Move, apply, new_game

script = json.loads(script_json)
state = new_game(JDF, script["hands"])
verdicts = []
for move in script["moves"]:
    if move.get("pass"):
        action = Move.pass_turn(move["seat"])
    else:
        action = Move.play(move["seat"], move["play"])
    try:
        state, events = apply(state, action)
    except IllegalMove as refusal:
        verdicts.append({"code": refusal.code, "message_ja": refusal.message_ja})
    else:
        verdicts.append({"events": [event.to_dict() for event in events]})
json.dumps({"engine": ENGINE_BUILD, "platform": sys.platform, "verdicts": verdicts})
`);
process.stdout.write(`${verdicts}\n`);
