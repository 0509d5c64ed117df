// The official TypeScript MCP SDK's client against an adk4j McpAgentServer, for McpAgentServerTest.
// Usage: node sdk-client.mjs http <url> | node sdk-client.mjs stdio <command> [args...]
// Lists the tools, calls the greeter twice in one session, prints the results as one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [mode, ...rest] = process.argv.slice(2);
const transport =
  mode === "http"
    ? new StreamableHTTPClientTransport(new URL(rest[0]))
    : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
const client = new Client({ name: "adk4j-test-client", version: "1.0.0" });
await client.connect(transport);
const tools = (await client.listTools()).tools.map((t) => t.name);
const first = await client.callTool({
  name: "greeter",
  arguments: { message: "first", state: { "user:name": "Grace" } },
});
const second = await client.callTool({
  name: "greeter",
  arguments: { message: "second", sessionId: first.structuredContent.sessionId },
});
if (first.isError || second.isError) {
  console.error(JSON.stringify({ first, second }));
  process.exit(2);
}
console.log(
  JSON.stringify({ tools, first: first.structuredContent, second: second.structuredContent }),
);
await client.close();
