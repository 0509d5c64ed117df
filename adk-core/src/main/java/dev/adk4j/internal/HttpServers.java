package dev.adk4j.internal;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Creates the JDK's HTTP servers adk4j serves with (the ADK API server, the A2A and MCP servers)
 * with Nagle's algorithm off on their connections. The JDK's server leaves it on unless the system
 * property {@value #NO_DELAY} is true, and then a small response can wait for the client's delayed
 * acknowledgement, about 40 ms on Linux, on every request; Tomcat, Netty and Node.js turn it off.
 * The property is read once, when the JVM's first JDK HTTP server is made: set here before that,
 * unless the application set it itself. (An application that made a JDK HTTP server before starting
 * adk4j's keeps the JDK's default.)
 */
public final class HttpServers {

  /** The JDK's system property that turns {@code TCP_NODELAY} on for its HTTP server. */
  public static final String NO_DELAY = "sun.net.httpserver.nodelay";

  private HttpServers() {}

  /** {@link HttpServer#create(InetSocketAddress, int)}, with {@code TCP_NODELAY} by default. */
  public static HttpServer create(InetSocketAddress address, int backlog) throws IOException {
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
    return HttpServer.create(address, backlog);
  }
}
