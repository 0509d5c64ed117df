// Run by the invoker before the application's build: copies the README's offline test (the Java
// block after the "snippet-file" marker in "Run agents offline") into the application, so the
// README's snippet itself is compiled and run in a project that has only the BOM and the README's
// dependencies.

def text = new File(readme).text
def marker = text.indexOf('<!-- snippet-file: ')
assert marker >= 0 : "no snippet-file marker in ${readme}"
def start = text.indexOf('```java\n', marker)
def end = text.indexOf('\n```', start + 8)
assert start >= 0 && end > start : "no Java block after the snippet-file marker in ${readme}"
def snippet = text.substring(start + 8, end + 1)
def name = (snippet =~ /class\s+(\w+)/)[0][1]

def target = new File(basedir, "src/test/java/${name}.java")
target.parentFile.mkdirs()
target.text = snippet
println "README snippet copied to ${target} (class ${name})"
return true
