package dev.adk4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a browser needs of the dev UI served under a base path, checked over HTTP. */
final class DevUiChecks {
  private DevUiChecks() {}

  /**
   * The dev UI under {@code root + basePath}: {@code /dev-ui} redirects into the base path, the
   * page loads with relative asset URLs, an asset it names is served, and the runtime configuration
   * points the UI at the API under the base path.
   *
   * @param authorization an {@code Authorization} header value, or null
   */
  static void assertServedUnder(String root, String basePath, String authorization)
      throws Exception {
    HttpClient http = HttpClient.newHttpClient(); // follows no redirects
    HttpResponse<String> redirect = get(http, root + basePath + "/dev-ui", authorization);
    assertThat(redirect.statusCode()).isBetween(301, 308);
    assertThat(redirect.headers().firstValue("Location")).contains(basePath + "/dev-ui/");

    HttpResponse<String> page = get(http, root + basePath + "/dev-ui/", authorization);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(page.body()).contains("<base href=\"./\">");
    Matcher script = Pattern.compile("src=\"\\./(main-[A-Za-z0-9]+\\.js)\"").matcher(page.body());
    assertThat(script.find()).as("the page names its main script").isTrue();
    HttpResponse<String> js =
        get(http, root + basePath + "/dev-ui/" + script.group(1), authorization);
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.headers().firstValue("Content-Type").orElse("")).startsWith("text/javascript");

    HttpResponse<String> config =
        get(http, root + basePath + "/dev-ui/assets/config/runtime-config.json", authorization);
    assertThat(config.statusCode()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(config.body()).get("backendUrl").asText())
        .isEqualTo(basePath);
    // and the API the UI calls is there
    HttpResponse<String> apps = get(http, root + basePath + "/list-apps", authorization);
    assertThat(apps.statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> get(HttpClient http, String url, String authorization)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
