package dev.adk4j.benchmarks.peers;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolMemoryId;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.memory.ChatMemoryAccess;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * LangChain4j 1.19.0: an AI service ({@code AiServices}) with the counter tool ({@code @Tool},
 * given the conversation through {@code @ToolMemoryId}) and a chat memory per conversation ({@code
 * MessageWindowChatMemory} over {@code InMemoryChatMemoryStore}, its window large enough to keep
 * every message of the benchmark, as the other frameworks do). LangChain4j has no conversation
 * state beside the memory, so the counter lives in the tool object, by memory id. LangChain4j's own
 * modules offer no JDBC chat memory store, so it runs in memory only.
 */
final class LangChain4jPeer implements PeerTurns {

  /** Holds far more than the largest history measured (1,000 prior messages). */
  static final int WINDOW = 100_000;

  /** The AI service. */
  interface Assistant extends ChatMemoryAccess {
    @SystemMessage(PeerWorkload.INSTRUCTION)
    String chat(@MemoryId String conversationId, @dev.langchain4j.service.UserMessage String text);
  }

  /** The scripted model, in LangChain4j's model interface. */
  static final class ScriptedModel implements ChatModel {
    static final ToolExecutionRequest CALL =
        ToolExecutionRequest.builder().id("call-1").name(PeerWorkload.TOOL).arguments("{}").build();
    final AtomicLong calls = new AtomicLong();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      calls.incrementAndGet();
      List<ChatMessage> messages = request.messages();
      boolean afterTool = messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage;
      return ChatResponse.builder()
          .aiMessage(afterTool ? AiMessage.from(PeerWorkload.FINAL_ANSWER) : AiMessage.from(CALL))
          .build();
    }
  }

  /** The tool: reads the conversation's counter and writes it back plus one. */
  public static final class CounterTool {
    final Map<Object, Long> counters = new ConcurrentHashMap<>();

    @Tool(name = PeerWorkload.TOOL, value = PeerWorkload.TOOL_DESCRIPTION)
    public long increment(@ToolMemoryId String conversationId) {
      long next = counters.getOrDefault(conversationId, 0L) + 1;
      counters.put(conversationId, next);
      return next;
    }
  }

  private final InMemoryChatMemoryStore store = new InMemoryChatMemoryStore();
  private final ScriptedModel model = new ScriptedModel();
  private final CounterTool tool = new CounterTool();
  private final Assistant assistant;

  LangChain4jPeer() {
    assistant =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .tools(tool)
            .chatMemoryProvider(
                id ->
                    MessageWindowChatMemory.builder()
                        .id(id)
                        .maxMessages(WINDOW)
                        .chatMemoryStore(store)
                        .build())
            .build();
  }

  @Override
  public void begin(String id) {
    // A conversation's memory is created by its first message.
  }

  @Override
  public void fill(String id, int messages) {
    // Into the store the conversation's memory reads (the AI service creates the memory itself,
    // at its first message).
    List<ChatMessage> prior = new ArrayList<>(store.getMessages(id));
    for (int i = 1; i <= messages; i++) {
      String text = PeerWorkload.priorMessage(i);
      prior.add(i % 2 == 1 ? UserMessage.from(text) : AiMessage.from(text));
    }
    store.updateMessages(id, prior);
  }

  @Override
  public String turn(String id) {
    return assistant.chat(id, PeerWorkload.USER_MESSAGE);
  }

  @Override
  public long counter(String id) {
    return tool.counters.getOrDefault(id, 0L);
  }

  @Override
  public int messages(String id) {
    return store.getMessages(id).size();
  }

  @Override
  public int messagesPerTurn() {
    return 4;
  }

  /** The AI service puts the system message into the memory at the first turn. */
  @Override
  public int firstTurnExtra() {
    return 1;
  }

  @Override
  public void end(String id) {
    assistant.evictChatMemory(id);
    tool.counters.remove(id);
  }

  @Override
  public long modelCalls() {
    return model.calls.get();
  }

  @Override
  public void close() {}
}
