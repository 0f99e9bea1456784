// The Pyodide half of benchmarks/offline_judge.py: the same taps through games/offline.py in
// Pyodide under Node.js, as on the phone.
//
//   node offline_judge.mjs <pyodide package dir> <engine.zip>  < [{"record", "taps"}, ...]
//
// Prints one JSON line: {"start_ms", "stateless": [ms per tap], "kept": [ms per tap]}.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [pyodideDir, archivePath] = process.argv.slice(2);
const games = readFileSync(0, "utf-8");

const began = performance.now();
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ stdout: (line) => process.stderr.write(`${line}\n`) });
pyodide.unpackArchive(new Uint8Array(readFileSync(archivePath)), "zip", {
  extractDir: "/home/pyodide/kakumei",
});
pyodide.runPython(`
import os, sys
sys.path.insert(0, "/home/pyodide/kakumei")
os.environ["KAKUMEI_ENGINE"] = "pure"
import games.offline
`);
const startMs = performance.now() - began;

pyodide.globals.set("games_json", games);
const timings = pyodide.runPython(`
import json, time
from games import offline

stateless, kept = [], []
for game in json.loads(games_json):
    record = json.dumps(game["record"])
    queue = []
    table = offline.Table(game["record"])
    for form in game["taps"]:
        began = time.perf_counter()
        answer = json.loads(offline.judge(record, json.dumps(queue), json.dumps(form)))
        stateless.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        table.play(offline.move_from_form(form))
        kept.append((time.perf_counter() - began) * 1000)
        queue.append(answer["move"])
json.dumps({"stateless": stateless, "kept": kept})
`);
const result = JSON.parse(timings);
result.start_ms = startMs;
process.stdout.write(`${JSON.stringify(result)}\n`);
