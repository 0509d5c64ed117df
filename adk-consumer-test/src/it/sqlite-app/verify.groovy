// Run by the invoker after the application's build: its runtime classpath must be exactly the one
// adk4j's reactor resolves for the same dependencies (reactorRuntime, written by
// adk-consumer-test's build), with one Jackson, and its program must have run.

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS') : "the application's build failed:\n" + log.readLines().findAll { it.startsWith('[ERROR]') }.take(8).join('\n')

// "com.google.guava:guava:jar:33.4.0-jre:compile -- module ..." -> "com.google.guava:guava:jar:33.4.0-jre"
def artifacts = { File list ->
    assert list.isFile() : "missing ${list}"
    list.readLines()
        .collect { it.trim().split(/\s+/)[0] }
        .findAll { it.count(':') >= 4 }
        .collect { it.substring(0, it.lastIndexOf(':')) }
        .toSorted()
}

def expected = artifacts(new File(reactorRuntime))
def actual = artifacts(new File(basedir, 'target/consumer-runtime.txt'))
def missing = expected - actual
def extra = actual - expected
assert !expected.isEmpty()
assert missing.isEmpty() && extra.isEmpty() : """\
The application resolves other libraries than adk4j's build and tests use.
  in adk4j's build only: ${missing}
  in the application only: ${extra}
Pin the version in adk4j-bom (or fix the exclusion) so that both agree."""

def jacksons = actual.findAll { it.startsWith('tools.jackson') || it.startsWith('com.fasterxml.jackson') }
assert jacksons.every { it.startsWith('com.fasterxml.jackson') } : "a second Jackson: ${jacksons}"
assert jacksons.collect { it.split(':')[3] }.findAll { !it.startsWith('2.') }.isEmpty() : "not Jackson 2: ${jacksons}"
assert actual.any { it.startsWith('com.google.guava:guava:jar:') && it.endsWith('-jre') } : "no guava -jre: ${actual}"

assert log.contains('consumer app: SQLite ok') && log.contains('consumer app: in-memory ok') : 'the application did not run'
assert log =~ /Tests run: 1, Failures: 0, Errors: 0, Skipped: 0.*WeatherAgentTest/ : "the README's offline test did not run and pass"

assert new File(basedir, 'target/sessions.db').isFile()
println "consumer classpath: ${actual.size()} artifacts, the same as adk4j's build"
return true
