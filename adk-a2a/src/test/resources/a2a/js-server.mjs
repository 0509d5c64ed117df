// An A2A agent on the official JavaScript SDK (@a2a-js/sdk), serving protocol 1.0 with its
// v0.3 compatibility layer on (the revision adk4j speaks). Usage: node js-server.mjs <port>.
// It answers "js heard: <text>" and completes; a message containing "need input" ends the turn
// input-required, and the next message to that task completes it with "js got: <text>".
// Prints "listening <port>" once it accepts connections.
import express from 'express';
import { Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}/`;

const card = {
  name: 'js_echo',
  description: 'Echoes what it hears (an agent on @a2a-js/sdk).',
  supportedInterfaces: [{ url: base, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'echo', description: 'Echoes text', tags: ['echo'] }],
};

const textOf = (message) =>
  (message?.parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');

const agentMessage = (text, contextId, taskId) => ({
  messageId: crypto.randomUUID(),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const status = (state, message) => ({ state, message, timestamp: new Date().toISOString() });

const executor = {
  async execute(ctx, bus) {
    const text = textOf(ctx.userMessage);
    const { taskId, contextId } = ctx;
    const followUp = ctx.task !== undefined;
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_WORKING, undefined),
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    if (!followUp && text.includes('need input')) {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: status(
            TaskState.TASK_STATE_INPUT_REQUIRED,
            agentMessage('js asks: which city?', contextId, taskId),
          ),
          metadata: undefined,
        }),
      );
      bus.finished();
      return;
    }
    const answer = (followUp ? 'js got: ' : 'js heard: ') + text;
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: crypto.randomUUID(),
          name: 'answer',
          description: '',
          parts: [{ content: { $case: 'text', value: answer }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED, undefined),
        metadata: undefined,
      }),
    );
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.finished();
  },
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express();
app.use(
  '/.well-known/agent-card.json',
  agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }),
);
app.use(
  '/',
  jsonRpcHandler({
    requestHandler: handler,
    userBuilder: UserBuilder.noAuthentication,
    legacyCompat: { enabled: true },
  }),
);
app.listen(port, '127.0.0.1', () => console.log(`listening ${port}`));
