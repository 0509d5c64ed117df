package dev.adk4j.tools.mcp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Node.js side of the tests: the reference MCP server ({@code
 * @modelcontextprotocol/server-everything}) and client SDK from the npm registry, installed into
 * {@code target/npm} at pinned versions the first time a test needs them, and the scripted fault
 * server in the test resources. A test that needs Node is skipped, saying why, when {@code node}
 * is not on the PATH.
 */
final class NodeMcp {
  private NodeMcp() {}

  static final String EVERYTHING = "@modelcontextprotocol/server-everything";
  static final String EVERYTHING_VERSION = "2026.8.31";
  static final String SDK = "@modelcontextprotocol/sdk";
  static final String SDK_VERSION = "1.32.2";

  private static final Path PREFIX = Path.of("target", "npm").toAbsolutePath();
  private static Boolean nodeFound;

  /** Skips the calling test unless {@code node} and {@code npm} run. */
  static synchronized void requireNode() {
    if (nodeFound == null) {
      nodeFound = runs("node", "--version") && runs("npm", "--version");
    }
    assumeTrue(
        nodeFound,
        "node and npm are not on the PATH: the tests against Node MCP servers are skipped");
  }

  private static boolean runs(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Installs the pinned npm packages into target/npm unless they are there already. Test JVMs of
   * the module (one by default, more with {@code -Dadk4j.test.forks}) take turns through a file
   * lock, so one installs and the others find the packages.
   */
  static synchronized Path installed() {
    requireNode();
    Path everything = PREFIX.resolve("node_modules").resolve(EVERYTHING).resolve("package.json");
    Path sdk = PREFIX.resolve("node_modules").resolve(SDK).resolve("package.json");
    if (hasVersion(everything, EVERYTHING_VERSION) && hasVersion(sdk, SDK_VERSION)) {
      return PREFIX;
    }
    try {
      Files.createDirectories(PREFIX);
      try (FileChannel lockFile =
          FileChannel.open(
              PREFIX.resolveSibling("npm.lock"),
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE)) {
        lockFile.lock(); // released when the channel closes
        if (!hasVersion(everything, EVERYTHING_VERSION) || !hasVersion(sdk, SDK_VERSION)) {
          install();
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("npm install failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during npm install", e);
    }
    return PREFIX;
  }

  private static void install() throws IOException, InterruptedException {
    Path log = PREFIX.resolve("npm-install.log");
    Process p =
        new ProcessBuilder(
                "npm",
                "install",
                "--prefix",
                PREFIX.toString(),
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                EVERYTHING + "@" + EVERYTHING_VERSION,
                SDK + "@" + SDK_VERSION)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(
          "npm install of "
              + EVERYTHING
              + " and "
              + SDK
              + " failed; see "
              + log
              + ":\n"
              + Files.readString(log));
    }
  }

  private static boolean hasVersion(Path packageJson, String version) {
    try {
      return Files.isRegularFile(packageJson)
          && Files.readString(packageJson, StandardCharsets.UTF_8)
              .contains("\"version\": \"" + version + "\"");
    } catch (IOException e) {
      return false;
    }
  }

  private static Path everythingMain() {
    return installed()
        .resolve("node_modules")
        .resolve(EVERYTHING)
        .resolve("dist")
        .resolve("index.js");
  }

  /** The command that runs server-everything over stdio. */
  static List<String> everythingStdio() {
    return List.of("node", everythingMain().toString(), "stdio");
  }

  /** Starts server-everything's streamable HTTP server on {@code port}; returns once it listens. */
  static Process everythingHttp(int port) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder("node", everythingMain().toString(), "streamableHttp")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("PORT", Integer.toString(port));
    Process p = pb.start();
    awaitListening(p, port);
    return p;
  }

  static void awaitListening(Process p, int port) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException("The MCP server on port " + port + " exited at start");
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException notYet) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }
    p.destroyForcibly();
    throw new IllegalStateException("The MCP server did not listen on port " + port + " in 60 s");
  }

  /** The command that runs the scripted fault server. */
  static List<String> scripted() {
    requireNode();
    return List.of("node", resource("mcp/scripted-server.mjs").toString());
  }

  /** Starts the scripted fault server in its HTTP mode on {@code port}; returns once it listens. */
  static Process scriptedHttp(int port) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(scripted())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("MCP_HTTP_PORT", Integer.toString(port));
    Process p = pb.start();
    awaitListening(p, port);
    return p;
  }

  static Path resource(String name) {
    try {
      return Path.of(NodeMcp.class.getClassLoader().getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Stops a process and waits for it to be gone. */
  static void stop(Process p) throws InterruptedException {
    List<ProcessHandle> children = new ArrayList<>(p.descendants().toList());
    p.destroy();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    children.forEach(ProcessHandle::destroyForcibly);
  }
}
