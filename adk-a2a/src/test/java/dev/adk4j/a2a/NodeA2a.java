package dev.adk4j.a2a;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * The Node.js side of the interop tests: the official A2A JavaScript SDK ({@code @a2a-js/sdk}) and
 * the {@code express} its server adapter runs on, installed from the npm registry into {@code
 * target/npm} at pinned versions the first time a test needs them, and the test scripts copied
 * there (so that their imports resolve). Tests that need Node are skipped, saying why, when {@code
 * node} or {@code npm} is not on the PATH.
 */
final class NodeA2a {
  private NodeA2a() {}

  static final String SDK = "@a2a-js/sdk";
  static final String SDK_VERSION = "1.3.0";
  static final String EXPRESS = "express";
  static final String EXPRESS_VERSION = "5.3.0";

  private static final Path PREFIX = Path.of("target", "npm").toAbsolutePath();
  private static Boolean nodeFound;

  static synchronized void requireNode() {
    if (nodeFound == null) {
      nodeFound = runs("node", "--version") && runs("npm", "--version");
    }
    assumeTrue(nodeFound, "node and npm are not on the PATH: the @a2a-js/sdk tests are skipped");
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

  /** Installs the pinned packages into target/npm unless there; copies the script; returns it. */
  static synchronized Path script(String name) throws IOException, InterruptedException {
    requireNode();
    Path sdk = PREFIX.resolve("node_modules").resolve(SDK).resolve("package.json");
    Path express = PREFIX.resolve("node_modules").resolve(EXPRESS).resolve("package.json");
    if (!hasVersion(sdk, SDK_VERSION) || !hasVersion(express, EXPRESS_VERSION)) {
      Files.createDirectories(PREFIX);
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
                  SDK + "@" + SDK_VERSION,
                  EXPRESS + "@" + EXPRESS_VERSION)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException(
            "npm install of " + SDK + " and " + EXPRESS + " failed:\n" + Files.readString(log));
      }
    }
    Path script = PREFIX.resolve(name);
    Files.copy(resource("a2a/" + name), script, StandardCopyOption.REPLACE_EXISTING);
    return script;
  }

  private static boolean hasVersion(Path packageJson, String version) throws IOException {
    return Files.isRegularFile(packageJson)
        && Files.readString(packageJson, StandardCharsets.UTF_8)
            .contains("\"version\": \"" + version + "\"");
  }

  private static Path resource(String name) {
    try {
      return Path.of(NodeA2a.class.getClassLoader().getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Starts the JS SDK server on {@code port}; returns once it says it listens. */
  static Process startServer(int port) throws IOException, InterruptedException {
    Path script = script("js-server.mjs");
    Process p =
        new ProcessBuilder("node", script.toString(), Integer.toString(port))
            .redirectErrorStream(true)
            .start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("listening")) {
      p.destroyForcibly();
      throw new IllegalStateException("The @a2a-js/sdk server did not start: " + line);
    }
    // Keep draining its output so that it never blocks on a full pipe.
    Thread drain =
        new Thread(
            () -> {
              try {
                while (out.readLine() != null) {
                  // discarded
                }
              } catch (IOException ignored) {
                // the process ended
              }
            },
            "js-server-output");
    drain.setDaemon(true);
    drain.start();
    return p;
  }

  static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
