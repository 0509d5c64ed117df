// A small MCP server over stdio for adk4j's fault tests: plain JSON-RPC, one message per line, no
// dependencies. What it does is chosen by environment variables:
//   MCP_SILENT=1      never answers anything (not even initialize)
//   MCP_TOOLS_FILE    a JSON file holding the tool list, read again at every tools/list
//   MCP_PROTOCOL      the protocol revision it answers initialize with (default: the client's)
//   MCP_HTTP_PORT     serve streamable HTTP (stateless: one JSON answer per POST to /mcp) on this
//                     port of 127.0.0.1 instead of stdio
// Tools (when no file is given): pid (its process id), fail (an isError result), crash (exits
// during the call), hang (never answers the call), big (a text of `size` characters), args (the
// arguments it was called with, as structured content).
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const silent = process.env.MCP_SILENT === "1";
const toolsFile = process.env.MCP_TOOLS_FILE;

const objectSchema = (properties = {}, required = []) => ({ type: "object", properties, required });
const defaultTools = [
  { name: "pid", description: "The server's process id", inputSchema: objectSchema() },
  { name: "fail", description: "Always reports an error", inputSchema: objectSchema() },
  { name: "crash", description: "Exits while answering", inputSchema: objectSchema() },
  { name: "hang", description: "Never answers", inputSchema: objectSchema() },
  {
    name: "big",
    description: "A long text",
    inputSchema: objectSchema({ size: { type: "integer" } }, ["size"]),
  },
  {
    name: "args",
    description: "Returns its arguments",
    inputSchema: objectSchema({ city: { type: "string" }, days: { type: "integer" } }, ["city"]),
  },
];

function tools() {
  return toolsFile ? JSON.parse(readFileSync(toolsFile, "utf8")) : defaultTools;
}

// Where answers go: stdout (one line each), or the pending HTTP response of the request's id.
const httpAnswers = new Map();
function send(message) {
  const res = httpAnswers.get(message.id);
  if (res) {
    httpAnswers.delete(message.id);
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(message));
    return;
  }
  process.stdout.write(JSON.stringify(message) + "\n");
}

function result(id, value) {
  send({ jsonrpc: "2.0", id, result: value });
}

function text(t) {
  return { content: [{ type: "text", text: t }] };
}

function call(id, name, args) {
  switch (name) {
    case "pid":
      return result(id, text(String(process.pid)));
    case "fail":
      return result(id, { content: [{ type: "text", text: "the weather service is down" }], isError: true });
    case "crash":
      process.exit(3);
      return;
    case "hang":
      return;
    case "big":
      return result(id, text("x".repeat(args.size)));
    case "args":
      return result(id, { content: [{ type: "text", text: JSON.stringify(args) }], structuredContent: args });
    default:
      if (tools().some((t) => t.name === name)) {
        return result(id, text(name + " ran"));
      }
      return send({ jsonrpc: "2.0", id, error: { code: -32602, message: "Unknown tool: " + name } });
  }
}

function handle(msg) {
  switch (msg.method) {
    case "initialize":
      return result(msg.id, {
        protocolVersion: process.env.MCP_PROTOCOL || msg.params.protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "adk4j-scripted", version: "1.0.0" },
      });
    case "ping":
      return result(msg.id, {});
    case "tools/list":
      return result(msg.id, { tools: tools() });
    case "tools/call":
      return call(msg.id, msg.params.name, msg.params.arguments || {});
    default:
      return send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
  }
}

if (process.env.MCP_HTTP_PORT) {
  createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { Allow: "POST" }).end();
      return;
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const msg = JSON.parse(body);
      if (msg.id === undefined || silent) {
        res.writeHead(202).end();
        return;
      }
      httpAnswers.set(msg.id, res);
      handle(msg);
    });
  }).listen(Number(process.env.MCP_HTTP_PORT), "127.0.0.1", () =>
    // One line on stderr once the port accepts connections, for a caller to wait on.
    process.stderr.write("listening\n"));
} else {
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (silent || line.trim() === "") {
      return;
    }
    const msg = JSON.parse(line);
    if (msg.id !== undefined) {
      handle(msg); // notifications need no answer
    }
  });
}
