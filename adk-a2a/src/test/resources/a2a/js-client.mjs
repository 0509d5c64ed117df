// A client on the official JavaScript SDK (@a2a-js/sdk, protocol 1.0 with its v0.3 compatibility
// layer on) talking to an adk4j A2aServer. Usage: node js-client.mjs <base url>. Prints one JSON
// object with what it saw: the card, two messages in one context, a stream, tasks/get, and the
// error of a tasks/get for an unknown task.
import { Role } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';

const base = process.argv[2];
const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
  }),
);
const card = await new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).resolve(base);
const client = await factory.createFromUrl(base);

const message = (text, contextId, taskId) => ({
  messageId: crypto.randomUUID(),
  contextId: contextId ?? '',
  taskId: taskId ?? '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const request = (msg) => ({ tenant: '', message: msg, configuration: undefined, metadata: undefined });

const textOf = (parts) =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const answerOf = (task) => textOf(task.artifacts?.[task.artifacts.length - 1]?.parts);
const taskOf = (result) => (result?.payload ? result.payload.value : result);

const out = { card: { name: card.name, skills: card.skills.map((s) => s.name) } };
const first = taskOf(await client.sendMessage(request(message('hello from js'))));
out.first = { answer: answerOf(first), state: first.status?.state, contextId: first.contextId };
const second = taskOf(await client.sendMessage(request(message('again', first.contextId))));
out.second = { answer: answerOf(second), contextId: second.contextId };

const kinds = [];
let streamed = '';
for await (const event of client.sendMessageStream(request(message('streamed', first.contextId)))) {
  const p = event.payload ?? event;
  kinds.push(p.$case);
  if (p.$case === 'artifactUpdate') streamed = textOf(p.value.artifact.parts);
}
out.stream = { kinds, answer: streamed };

const got = await client.getTask({ tenant: '', id: first.id, historyLength: undefined });
out.get = { id: got.id, state: got.status?.state, answer: answerOf(got) };
try {
  await client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined });
  out.unknownTask = 'no error';
} catch (e) {
  out.unknownTask = String(e?.message ?? e);
}
console.log(JSON.stringify(out));
