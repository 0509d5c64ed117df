// The dev-server comparison's agent for ADK for JavaScript's dev server (@google/adk-devtools,
// `adk api_server`), found as <agents dir>/latency_agent/agent.js exporting rootAgent. The same
// turn as adk4j's side (dev.adk4j.benchmarks.devservers.Adk4jDevServer) and ADK for Java's
// (adk-java/.../LatencyAgent.java): a scripted model that answers after a fixed latency
// (DEVSERVERS_LATENCY_MS, 50 by default), first with a call of count_turn, then, after the tool's
// response, with "Counted."; the tool reads the session's `turns` and writes it back plus one.
import {BaseLlm, FunctionTool, LlmAgent} from '@google/adk';

const TOOL = 'count_turn';
const COUNTER = 'turns';
const ANSWER = 'Counted.';
const latencyMs = Number(process.env.DEVSERVERS_LATENCY_MS ?? '50');

/** A model that answers after a fixed delay (a timer), as a remote one would. */
class LatencyModel extends BaseLlm {
  constructor() {
    super({model: 'scripted-latency-model'});
  }

  async *generateContentAsync(llmRequest) {
    const contents = llmRequest.contents ?? [];
    const last = contents.length > 0 ? contents[contents.length - 1] : undefined;
    const afterTool = (last?.parts ?? []).some((p) => p.functionResponse !== undefined);
    if (latencyMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
    }
    yield afterTool
      ? {content: {role: 'model', parts: [{text: ANSWER}]}}
      : {content: {role: 'model', parts: [{functionCall: {name: TOOL, args: {}}}]}};
  }

  async connect() {
    throw new Error('the scripted model has no live connection');
  }
}

const countTurn = new FunctionTool({
  name: TOOL,
  description: 'Counts this turn.',
  parameters: {type: 'OBJECT', properties: {}},
  execute: (_input, toolContext) => {
    const next = Number(toolContext.state.get(COUNTER) ?? 0) + 1;
    toolContext.state.set(COUNTER, next);
    return {[COUNTER]: next};
  },
});

export const rootAgent = new LlmAgent({
  name: 'latency_agent',
  model: new LatencyModel(),
  instruction: 'Count every turn with the tool.',
  tools: [countTurn],
});
