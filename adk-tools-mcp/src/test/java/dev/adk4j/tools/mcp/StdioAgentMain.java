package dev.adk4j.tools.mcp;

import dev.adk4j.runner.InMemoryRunner;
import dev.adk4j.testsupport.ChildJvm;
import java.io.PrintStream;

/**
 * A child process for the stdio tests: serves {@link Greeter} over its stdin and stdout, in memory,
 * until stdin ends. Anything else printed goes to stderr, so stdout carries MCP alone.
 */
public final class StdioAgentMain {
  private StdioAgentMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream protocol = System.out;
    System.setOut(System.err);
    McpAgentServer server =
        McpAgentServer.builder().agent(new InMemoryRunner(Greeter.agent(), "greeter_app")).build();
    server.serveStdio(System.in, protocol);
  }

  /** The command line that starts this class with the test classpath. */
  static java.util.List<String> command() {
    return ChildJvm.command(
        "-Dadk4j.test.log=OFF",
        "-cp",
        System.getProperty("java.class.path"),
        StdioAgentMain.class.getName());
  }
}
