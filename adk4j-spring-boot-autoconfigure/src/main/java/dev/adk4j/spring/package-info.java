/**
 * Spring Boot auto-configuration of adk4j: runners for the application's agent beans ({@link
 * dev.adk4j.spring.AdkApp}, {@link dev.adk4j.spring.AdkRunners}), session, artifact and memory
 * services on the application's {@code DataSource}, the ADK REST API in Spring MVC, an actuator
 * health indicator and Micrometer meters, all configured by {@link
 * dev.adk4j.spring.Adk4jProperties} ({@code adk4j.*}). See {@code docs/spring-boot.md}.
 */
@NullMarked
package dev.adk4j.spring;

import org.jspecify.annotations.NullMarked;
