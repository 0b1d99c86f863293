package io.domainoperators.testenv;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.index.mapper.MapperExtrasPlugin;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * Runs one OpenSearch node in this JVM with its plugins loaded from the classpath.
 *
 * <p>Usage: {@code OpenSearchLauncher <path.home> [extra plugin class]...}. Settings come from
 * {@code <path.home>/config/opensearch.yml}, logging from {@code <path.home>/config/log4j2.properties}.
 * The core plugins are always loaded; extra plugin classes (for example the security plugin) are named on the
 * command line because they are only on the classpath when the caller put them there. The process runs until it
 * receives SIGTERM, then closes the node.
 *
 * <p>Constructing {@link Node} directly skips OpenSearch's bootstrap (security manager, jar-hell and bootstrap
 * checks): this is a test node, never a production one.
 */
public final class OpenSearchLauncher {

    private static final List<Class<? extends Plugin>> CORE_PLUGINS = List.of(
        Netty4Plugin.class,
        CommonAnalysisPlugin.class,
        PainlessPlugin.class,
        MapperExtrasPlugin.class,
        ReindexPlugin.class
    );

    private OpenSearchLauncher() {}

    /** A node whose plugins are given as classes instead of being read from {@code plugins/}. */
    private static final class ClasspathNode extends Node {
        ClasspathNode(Environment environment, List<Class<? extends Plugin>> plugins) {
            super(environment, plugins, true);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: OpenSearchLauncher <path.home> [plugin class]...");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        List<Class<? extends Plugin>> plugins = new ArrayList<>(CORE_PLUGINS);
        for (int i = 1; i < args.length; i++) {
            plugins.add(Class.forName(args[i]).asSubclass(Plugin.class));
        }

        Settings base = Settings.builder().put("path.home", home.toString()).build();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(
            base, Collections.emptyMap(), home.resolve("config"), () -> "testenv");
        LogConfigurator.configure(environment);

        Node node = new ClasspathNode(environment, plugins);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "testenv-shutdown"));
        node.start();
        // Node threads are daemons: keep the JVM up until the shutdown hook has closed the node.
        stopped.await();
    }
}
