import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * Runs mongo-java-server on a chosen address, which its own mains (fixed localhost:27017) cannot.
 *
 * <pre>
 * java -cp 'libs/*:classes' MongoLauncher HOST PORT [H2_FILE] [--oplog]
 * </pre>
 *
 * Without H2_FILE the in-memory backend is used (test profile: every start is empty). With H2_FILE
 * the H2 MVStore backend keeps data in that file across restarts (dev profile); it is flushed and
 * closed by the shutdown hook on SIGTERM, so stop it with SIGTERM, not SIGKILL. --oplog enables the
 * oplog, which change streams ({@code watch()}) need; it costs one extra write per write.
 *
 * Compiled once with javac by scripts/infra.sh into the cache; see tools/README.md.
 */
public final class MongoLauncher {

    private MongoLauncher() {
    }

    public static void main(String[] args) throws InterruptedException {
        String host = null;
        Integer port = null;
        String h2File = null;
        boolean oplog = false;
        for (String arg : args) {
            if (arg.equals("--oplog")) {
                oplog = true;
            } else if (host == null) {
                host = arg;
            } else if (port == null) {
                port = Integer.valueOf(arg);
            } else if (h2File == null) {
                h2File = arg;
            } else {
                usage("unexpected argument: " + arg);
            }
        }
        if (host == null || port == null) {
            usage("HOST and PORT are required");
        }

        MongoBackend backend = h2File == null ? new MemoryBackend() : new H2Backend(h2File);
        if (oplog) {
            backend.enableOplog();
        }
        MongoServer server = new MongoServer(backend);
        try {
            server.bind(host, port);
        } catch (RuntimeException e) {
            // e.g. the port is taken; bind() has already shut the server down
            System.err.println("mongo-launcher: cannot listen on " + host + ":" + port + ": " + e);
            System.exit(1);
        }
        // SIGTERM runs this: closes clients, then the backend (H2 commits and closes its file)
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "mongo-launcher-shutdown"));
        System.out.println("mongo-launcher: listening on " + host + ":" + port
            + " backend=" + (h2File == null ? "memory" : "h2:" + h2File) + " oplog=" + oplog);
        System.out.flush();
        Thread.currentThread().join();
    }

    private static void usage(String problem) {
        System.err.println("mongo-launcher: " + problem);
        System.err.println("usage: MongoLauncher HOST PORT [H2_FILE] [--oplog]");
        System.exit(2);
    }
}
