package dev.adk4j.examples.spring;

import com.google.genai.types.Content;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A Spring Boot application with one agent. Everything else comes from the starter: the runner,
 * sessions on the application's DataSource ({@code spring.datasource.url}), the ADK API under
 * {@code /adk} behind the application's security, the {@code adk4j} health indicator and the {@code
 * adk4j.*} meters. Run it with {@code ./mvnw -pl adk-examples-spring-boot -am spring-boot:run} or
 * from an IDE; set {@code adk4j.model.provider} and {@code adk4j.model.name} (and the provider's
 * key in the environment) for a real model, else an offline demo model answers.
 */
@SpringBootApplication
public class WeatherApplication {

  public static void main(String[] args) {
    SpringApplication.run(WeatherApplication.class, args);
  }

  /** The app "weather": one agent with one tool, counting each user's questions in state. */
  @Bean
  LlmAgent weather(ObjectProvider<BaseLlm> configuredModel) {
    BaseLlm model = configuredModel.getIfAvailable(WeatherApplication::demoModel);
    return LlmAgent.builder()
        .name("weather")
        .description("Tells the weather of a city")
        .model(model)
        .instruction("Answer questions about the weather; call getWeather for a city.")
        .tools(FunctionTool.create(WeatherApplication.class, "getWeather"))
        .build();
  }

  /** The tool: a fixed forecast, and a per-user count of the questions asked. */
  public static Map<String, Object> getWeather(
      @Schema(name = "city", description = "the city") String city, ToolContext context) {
    Object before = context.state().get("user:questions");
    int asked = (before instanceof Number n ? n.intValue() : 0) + 1;
    context.state().put("user:questions", asked);
    return Map.of("city", city, "forecast", "sunny, 21 °C", "questions", asked);
  }

  /**
   * Offline: asks the tool about the city the user named (the last word of the message), then, once
   * the tool answered, answers with its forecast.
   */
  static BaseLlm demoModel() {
    return ScriptedLlm.answering(
        req -> {
          List<Content> contents = req.contents();
          Content last = contents.get(contents.size() - 1);
          Optional<Map<String, Object>> toolAnswer =
              last.parts().orElse(List.of()).stream()
                  .flatMap(p -> p.functionResponse().stream())
                  .flatMap(r -> r.response().stream())
                  .findFirst();
          if (toolAnswer.isEmpty()) {
            String text = ScriptedLlm.userText(req);
            String city = text.substring(text.lastIndexOf(' ') + 1).replace("?", "");
            return ScriptedLlm.functionCallResponse("getWeather", Map.of("city", city));
          }
          Map<String, Object> r = toolAnswer.get();
          return ScriptedLlm.textResponse(
              "In " + r.get("city") + " it is " + r.get("forecast") + " (demo model).");
        });
  }

  /**
   * The application's security, which the ADK API is under: HTTP basic for everything but the
   * health endpoint; the user of {@code spring.security.user.*}. The API's paths carry the user id,
   * which the starter checks against the authenticated user.
   */
  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(
            a -> a.requestMatchers("/actuator/health/**").permitAll().anyRequest().authenticated())
        .httpBasic(Customizer.withDefaults())
        .csrf(c -> c.ignoringRequestMatchers("/adk/**"));
    return http.build();
  }
}
