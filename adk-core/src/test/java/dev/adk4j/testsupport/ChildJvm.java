package dev.adk4j.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of a JVM a test starts (a second process on the same store, a server over stdio,
 * a worker under faults): this JVM's {@code java} and the flags every such JVM runs with, then the
 * caller's options, class path, main class and arguments.
 *
 * <p>The flags are those of the test JVMs (the root pom's {@code adk4j.test.jvm}): C1 only, the
 * serial collector, and no bytecode verification of the class path's classes. These JVMs live for
 * seconds, too short for C2's compiles to pay back, and verifying the classes they load was about a
 * tenth of their CPU.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java}, the flags, then {@code rest} as given. */
  public static List<String> command(String... rest) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UnlockDiagnosticVMOptions");
    command.add("-XX:-BytecodeVerificationRemote");
    command.addAll(Arrays.asList(rest));
    return command;
  }

  /** {@code java}, the flags, this JVM's class path, {@code main} and its arguments. */
  public static List<String> command(Class<?> main, String... args) {
    List<String> command = command("-cp", System.getProperty("java.class.path"), main.getName());
    command.addAll(Arrays.asList(args));
    return command;
  }
}
