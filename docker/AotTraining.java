import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * The training side of the image's JDK AOT cache (docker/aot-train.sh), kept apart from the
 * gateway's code so that the cache depends on the libraries only.
 *
 * <p>A JDK AOT cache names the class path it was recorded with (each jar's path, size and time),
 * and a later JVM uses it only if its own class path starts with that one. The gateway's jars
 * change with every code change; the libraries' jars do not. So the cache is recorded on a class
 * path of the libraries and this class alone, and the gateway is loaded for the training run by a
 * class loader of its own, whose classes the cache leaves out. The container then runs on the
 * libraries, this jar, and the gateway's jars after them: a cache recorded before a code change
 * still fits, and the image build reuses it instead of running the training again.
 *
 * <pre>
 *   java -cp aot-training.jar AotTraining plan APP_DIR
 *       prints "main CLASS", "libraries CP" and "application CP" for the extracted layout in APP_DIR
 *       (gateway.jar, lib/, modules.txt naming the jars under lib/ that are the project's own)
 *   java -cp LIBRARIES -Daot.application=CP AotTraining run CLASS ARGS...
 *       runs CLASS's main with CP on a class loader of its own (the training run)
 * </pre>
 */
public final class AotTraining {

  private AotTraining() {}

  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("plan")) {
      plan(Path.of(args[1]).toAbsolutePath());
    } else if (args.length >= 2 && args[0].equals("run")) {
      run(args[1], Arrays.copyOfRange(args, 2, args.length));
    } else {
      System.err.println("usage: AotTraining plan APP_DIR | run MAIN_CLASS ARGS...");
      System.exit(2);
    }
  }

  /**
   * The launch plan of an extracted gateway: the main class and its manifest's class path split
   * into the libraries (in the manifest's order, then this jar) and the project's own jars (in the
   * manifest's order, then gateway.jar).
   */
  private static void plan(Path app) throws Exception {
    Path gateway = app.resolve("gateway.jar");
    Set<String> modules = Set.copyOf(lines(app.resolve("modules.txt")));
    Attributes manifest;
    try (JarFile jar = new JarFile(gateway.toFile())) {
      manifest = jar.getManifest().getMainAttributes();
    }
    String main = manifest.getValue(Attributes.Name.MAIN_CLASS);
    String classPath = manifest.getValue(Attributes.Name.CLASS_PATH);
    if (main == null || classPath == null) {
      throw new IllegalStateException(gateway + " has no Main-Class or Class-Path");
    }
    List<String> libraries = new ArrayList<>();
    List<String> application = new ArrayList<>();
    for (String entry : classPath.trim().split("\\s+")) {
      Path jar = app.resolve(entry);
      if (!Files.isRegularFile(jar)) {
        throw new IllegalStateException("the manifest names " + entry + ", not in " + app);
      }
      (modules.contains(entry) ? application : libraries).add(jar.toString());
    }
    if (application.size() != modules.size()) {
      throw new IllegalStateException("modules.txt names jars the manifest does not: " + modules);
    }
    libraries.add(
        Path.of(AotTraining.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString());
    application.add(gateway.toString());
    System.out.println("main " + main);
    System.out.println("libraries " + String.join(":", libraries));
    System.out.println("application " + String.join(":", application));
  }

  private static void run(String mainClass, String[] args) throws Exception {
    String classPath = System.getProperty("aot.application");
    if (classPath == null || classPath.isBlank()) {
      throw new IllegalStateException("no -Daot.application class path");
    }
    String[] jars = classPath.split(":");
    URL[] urls = new URL[jars.length];
    for (int i = 0; i < jars.length; i++) {
      urls[i] = Path.of(jars[i]).toUri().toURL();
    }
    // The libraries stay with the application class loader (parent first): those are the classes
    // the cache holds. The gateway's own classes come from this loader and are left out of it.
    URLClassLoader loader = new URLClassLoader("gateway", urls, ClassLoader.getSystemClassLoader());
    Thread.currentThread().setContextClassLoader(loader);
    Method main = loader.loadClass(mainClass).getMethod("main", String[].class);
    main.invoke(null, (Object) args);
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file).stream()
          .map(String::strip)
          .filter(s -> !s.isEmpty())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
