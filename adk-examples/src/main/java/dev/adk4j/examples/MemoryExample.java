package dev.adk4j.examples;

import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.memory.BaseMemoryService;
import dev.adk4j.memory.DatabaseMemoryService;
import dev.adk4j.memory.MemoryEntry;
import dev.adk4j.memory.SearchMemoryResponse;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.LoadMemoryTool;
import dev.adk4j.tools.PreloadMemoryTool;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Memory across sessions, in the same SQLite file as the sessions: a conversation of last week is
 * added to memory; in new sessions, {@code preload_memory} puts what matches the user's message in
 * the instruction, and the model calls {@code load_memory} to search. Another user finds nothing.
 */
public final class MemoryExample {
  private MemoryExample() {}

  static final String APP = "memory_app";

  /** Runs the example on its own file {@code memory.db} in {@code dataDir}, made afresh. */
  public static void run(Path dataDir, Transcript t) {
    Path file = dataDir.resolve("memory.db");
    ExampleSupport.deleteSqliteFile(file);
    // tag::same-store[]
    String url = "jdbc:sqlite:" + file;
    DatabaseSessionService sessions = new DatabaseSessionService(url);
    DatabaseMemoryService memory = new DatabaseMemoryService(url); // the same file
    // end::same-store[]
    try (sessions;
        memory) {
      run(sessions, memory, t);
    }
  }

  static void run(BaseSessionService sessions, BaseMemoryService memory, Transcript t) {
    t.step("Last week's session is added to memory");
    Session lastWeek = pastConversation(sessions);
    for (Event e : lastWeek.events()) {
      t.event(e);
    }
    // tag::add[]
    Session finished = sessions.getSession(APP, "user7", "last-week").blockingGet();
    memory.addSessionToMemory(finished).blockingAwait(); // again later adds only new events
    // end::add[]

    t.step("A new session: preload_memory puts matching memories in the instruction");
    // tag::preload[]
    LlmAgent planner =
        LlmAgent.builder()
            .name("Planner")
            .model(ExampleModels.model(MemoryExample::recallFromInstruction))
            .instruction("Help the user plan their trip.")
            .tools(new PreloadMemoryTool()) // searches memory with the user's message
            .build();
    Runner runner =
        Runner.builder()
            .agent(planner)
            .appName(APP)
            .sessionService(sessions)
            .memoryService(memory) // what ToolContext.searchMemory and the tools search
            .build();
    // end::preload[]
    sessions.createSession(APP, "user7", null, "today").blockingGet();
    ExampleSupport.run(runner, "user7", "today", "Any snack ideas for my Lisbon trip?", t);

    t.step("Another session: the model calls load_memory");
    LlmAgent searcher =
        LlmAgent.builder()
            .name("Searcher")
            .model(
                ExampleModels.model(
                    request -> "I will look it up.",
                    Map.of(LoadMemoryTool.NAME, Map.of("query", "allergic"))))
            .instruction("Answer the user's questions.")
            .tools(new LoadMemoryTool())
            .build();
    Runner searching =
        Runner.builder()
            .agent(searcher)
            .appName(APP)
            .sessionService(sessions)
            .memoryService(memory)
            .build();
    sessions.createSession(APP, "user7", null, "question").blockingGet();
    ExampleSupport.run(searching, "user7", "question", "What am I allergic to?", t);

    t.step("Memory is per user: user8 asks the same and finds nothing");
    sessions.createSession(APP, "user8", null, "today").blockingGet();
    ExampleSupport.run(runner, "user8", "today", "Any snack ideas for my Lisbon trip?", t);
    // tag::search[]
    SearchMemoryResponse found = memory.searchMemory(APP, "user8", "peanuts").blockingGet();
    // end::search[]
    t.say("user8's search for 'peanuts' found " + found.memories().size() + " memories");
    SearchMemoryResponse mine = memory.searchMemory(APP, "user7", "peanuts Lisbon").blockingGet();
    for (MemoryEntry m : mine.memories()) {
      t.say("user7 remembers, from " + m.timestamp() + ": " + m.author() + " said " + text(m));
    }
  }

  /** A conversation of last week, appended with its own (fixed) times. */
  private static Session pastConversation(BaseSessionService sessions) {
    Session s = sessions.createSession(APP, "user7", null, "last-week").blockingGet();
    Instant when = Instant.parse("2026-01-15T10:00:00Z");
    sessions
        .appendEvent(
            s, said("user", "I am allergic to peanuts, and Lisbon is my favourite city.", when))
        .blockingGet();
    sessions
        .appendEvent(s, said("Planner", "Noted: no peanuts, and Lisbon!", when.plusSeconds(5)))
        .blockingGet();
    return sessions.getSession(APP, "user7", "last-week").blockingGet();
  }

  private static Event said(String author, String text, Instant when) {
    return Event.builder()
        .author(author)
        .content(
            Content.builder()
                .role(author.equals("user") ? "user" : "model")
                .parts(List.of(Part.fromText(text)))
                .build())
        .timestamp(when.toEpochMilli())
        .build();
  }

  /** The demo model's reply: the memory lines it found in its instruction, if any. */
  private static String recallFromInstruction(LlmRequest request) {
    String instruction = request.systemInstruction().orElse("");
    int start = instruction.indexOf("<PAST_CONVERSATIONS>");
    int end = instruction.indexOf("</PAST_CONVERSATIONS>");
    if (start < 0 || end < 0) {
      return "I don't know anything about you yet: what do you like?";
    }
    String lines = instruction.substring(start + "<PAST_CONVERSATIONS>".length(), end).strip();
    return "From our past conversations: " + lines.replace("\n", " | ");
  }

  private static String text(MemoryEntry m) {
    StringBuilder b = new StringBuilder();
    for (Part p : m.content().parts().orElse(List.of())) {
      b.append(p.text().orElse(""));
    }
    return b.toString();
  }
}
