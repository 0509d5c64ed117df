package dev.adk4j.benchmarks.peers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.memory.repository.jdbc.PostgresChatMemoryRepositoryDialect;
import org.springframework.ai.chat.memory.repository.jdbc.SqliteChatMemoryRepositoryDialect;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * Spring AI 2.0.1, without a Spring Boot application (the benchmark builds the beans itself): a
 * {@code ChatClient} over the scripted {@code ChatModel}, with the counter tool ({@code @Tool}
 * method, given the conversation through its {@code ToolContext}), a {@code
 * MessageChatMemoryAdvisor} over {@code MessageWindowChatMemory} (window large enough to keep every
 * message, as the other frameworks do), and Spring AI 2's {@code ToolCallingAdvisor}, which runs
 * the tool loop in the advisor chain (a provider's {@code ChatModel} would otherwise run it itself,
 * with the same {@code ToolCallingManager}). The memory's repository: {@code
 * InMemoryChatMemoryRepository}, or {@code JdbcChatMemoryRepository} on SQLite or PostgreSQL (its
 * own schema script, HikariCP pool). Spring AI has no conversation state beside the memory, so the
 * counter lives in the tool object, by conversation id.
 */
final class SpringAiPeer implements PeerTurns {

  static final int WINDOW = 100_000;
  static final String CONVERSATION = "conversation";

  /** The scripted model, in Spring AI's model interface. */
  static final class ScriptedModel implements ChatModel {
    static final AssistantMessage CALL =
        AssistantMessage.builder()
            .content("")
            .toolCalls(
                List.of(
                    new AssistantMessage.ToolCall("call-1", "function", PeerWorkload.TOOL, "{}")))
            .build();
    final AtomicLong calls = new AtomicLong();

    /**
     * Tool-calling options, as a provider's model has: without them the chat client passes no tool
     * to the model and the tool advisor runs none.
     */
    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
      calls.incrementAndGet();
      List<Message> messages = prompt.getInstructions();
      boolean afterTool = messages.get(messages.size() - 1) instanceof ToolResponseMessage;
      return new ChatResponse(
          List.of(
              new Generation(afterTool ? new AssistantMessage(PeerWorkload.FINAL_ANSWER) : CALL)));
    }
  }

  /** The tool: reads the conversation's counter and writes it back plus one. */
  public static final class CounterTool {
    final Map<Object, Long> counters = new ConcurrentHashMap<>();

    @Tool(name = PeerWorkload.TOOL, description = PeerWorkload.TOOL_DESCRIPTION)
    public long increment(ToolContext context) {
      Object id = context.getContext().get(CONVERSATION);
      long next = counters.getOrDefault(id, 0L) + 1;
      counters.put(id, next);
      return next;
    }
  }

  private final PeerDatabase database;
  private final HikariDataSource dataSource;
  private final ChatMemoryRepository repository;
  private final ChatMemory memory;
  private final ScriptedModel model = new ScriptedModel();
  private final CounterTool tool = new CounterTool();
  private final ChatClient client;

  SpringAiPeer(String store) {
    if (PeerWorkload.MEMORY.equals(store)) {
      database = null;
      dataSource = null;
      repository = new InMemoryChatMemoryRepository();
    } else {
      database = PeerDatabase.start(store);
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(database.url);
      dataSource = new HikariDataSource(config);
      boolean sqlite = PeerWorkload.SQLITE.equals(store);
      new ResourceDatabasePopulator(
              new ClassPathResource(
                  "org/springframework/ai/chat/memory/repository/jdbc/schema-"
                      + (sqlite ? "sqlite" : "postgresql")
                      + ".sql"))
          .execute(dataSource);
      repository =
          JdbcChatMemoryRepository.builder()
              .jdbcTemplate(new JdbcTemplate(dataSource))
              .dialect(
                  sqlite
                      ? new SqliteChatMemoryRepositoryDialect()
                      : new PostgresChatMemoryRepositoryDialect())
              .build();
    }
    memory =
        MessageWindowChatMemory.builder()
            .chatMemoryRepository(repository)
            .maxMessages(WINDOW)
            .build();
    client =
        ChatClient.builder(model)
            .defaultSystem(PeerWorkload.INSTRUCTION)
            .defaultTools(tool)
            .defaultAdvisors(
                MessageChatMemoryAdvisor.builder(memory).build(),
                ToolCallingAdvisor.builder()
                    .toolCallingManager(ToolCallingManager.builder().build())
                    .build())
            .build();
  }

  @Override
  public void begin(String id) {
    // A conversation's memory is created by its first message.
  }

  @Override
  public void fill(String id, int messages) {
    // One write of the whole list (the window keeps it all), not one per message.
    List<Message> prior = new java.util.ArrayList<>(repository.findByConversationId(id));
    for (int i = 1; i <= messages; i++) {
      String text = PeerWorkload.priorMessage(i);
      prior.add(i % 2 == 1 ? new UserMessage(text) : new AssistantMessage(text));
    }
    repository.saveAll(id, prior);
  }

  @Override
  public String turn(String id) {
    return client
        .prompt()
        .user(PeerWorkload.USER_MESSAGE)
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, id))
        .toolContext(Map.of(CONVERSATION, id))
        .call()
        .content();
  }

  @Override
  public long counter(String id) {
    return tool.counters.getOrDefault(id, 0L);
  }

  @Override
  public int messages(String id) {
    return repository.findByConversationId(id).size();
  }

  @Override
  public int messagesPerTurn() {
    return 2;
  }

  @Override
  public void end(String id) {
    memory.clear(id);
    tool.counters.remove(id);
  }

  @Override
  public long modelCalls() {
    return model.calls.get();
  }

  @Override
  public void close() {
    if (dataSource != null) {
      dataSource.close();
    }
    if (database != null) {
      database.close();
    }
  }
}
