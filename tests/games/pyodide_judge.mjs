// Judges a referee's scripted taps on a JDF game with the engine archive under Pyodide, through
// games/offline.py as the console's offline mode does on the phone (issue #19);
// tests/games/test_the_engine_runs_under_pyodide.py compares the answers with the server's.
//
//   node pyodide_judge.mjs <pyodide package dir> <engine.zip>  < {"hands": [...], "taps": [...]}
//
// A tap is the console form's fields, {"seat": ["0"], "cards": ["3S"], "action": ["play"]}.
// Prints one JSON line: {"engine": ENGINE_BUILD, "platform": sys.platform, "answers": [the
// judge's answer to each tap, in order], "view": the state view after the accepted ones}.

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
const outcome = pyodide.runPython(`
import json
import os
import sys

sys.path.insert(0, "/home/pyodide/kakumei")
# A phone never has a mypyc build; say so rather than let the loader look for one.
os.environ["KAKUMEI_ENGINE"] = "pure"

from games import offline
from games.engine import ENGINE_BUILD, JDF, new_game
from games.engine.record import export_record

script = json.loads(script_json)
record = json.dumps(export_record(new_game(JDF, script["hands"]), []))
queue, answers = [], []
for tap in script["taps"]:
    answer = json.loads(offline.judge(record, json.dumps(queue), json.dumps(tap)))
    answers.append(answer)
    if answer["ok"]:
        queue.append(answer["move"])
view = json.loads(offline.state_view(record, json.dumps(queue)))
json.dumps({"engine": ENGINE_BUILD, "platform": sys.platform, "answers": answers, "view": view})
`);
process.stdout.write(`${outcome}\n`);
