// Writes o200k.jsonl: for each JSON string on stdin, the token ids that
// OpenAI's tiktoken (npm tiktoken, its Rust core as WebAssembly) gives.
//   npm install tiktoken@1.0.22 && node reference.cjs < texts.jsonl > o200k.jsonl
const { get_encoding } = require("tiktoken");
const enc = get_encoding("o200k_base");
const rl = require("readline").createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (l) => {
  const text = JSON.parse(l);
  console.log(JSON.stringify({ text, ids: Array.from(enc.encode_ordinary(text)) }));
});
rl.on("close", () => enc.free());
