import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVStore;

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
 * <p>Both backends are used through the subclasses below, which make creating a collection atomic.
 * mongo-java-server 1.47.0's {@code create} command checks that the collection does not exist and
 * then creates it outside the database's lock, which every implicit creator (insert, update,
 * createIndexes) takes: a {@code create} racing another creator of the same collection registered
 * it twice, and the loser got "Unknown error: Document with key 'db.coll' already existed in
 * H2Collection(db.system.namespaces)" (no code) instead of NamespaceExists (48), the answer of a
 * real MongoDB. Services starting together on a fresh dev data file died of it (issue 22).
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

        MongoBackend backend = h2File == null ? new AtomicMemoryBackend() : new AtomicH2Backend(h2File);
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

    // Check-then-create under the database's own lock, the one resolveOrCreateCollection (every
    // implicit creator) holds: the loser of a race now finds the collection and gets code 48.

    static final class AtomicH2Backend extends H2Backend {
        AtomicH2Backend(String file) {
            super(file);
        }

        @Override
        protected MongoDatabase openOrCreateDatabase(String databaseName) {
            return new AtomicH2Database(databaseName, getMvStore(), getCursorRegistry());
        }
    }

    static final class AtomicH2Database extends H2Database {
        AtomicH2Database(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
            super(databaseName, mvStore, cursorRegistry);
        }

        @Override
        public synchronized MongoCollection<Object> createCollectionOrThrowIfExists(String name, CollectionOptions options) {
            return super.createCollectionOrThrowIfExists(name, options);
        }
    }

    static final class AtomicMemoryBackend extends MemoryBackend {
        @Override
        public MemoryDatabase openOrCreateDatabase(String databaseName) {
            return new AtomicMemoryDatabase(databaseName, getCursorRegistry());
        }
    }

    static final class AtomicMemoryDatabase extends MemoryDatabase {
        private final CursorRegistry cursors;

        AtomicMemoryDatabase(String databaseName, CursorRegistry cursorRegistry) {
            super(databaseName, cursorRegistry);
            this.cursors = cursorRegistry;
        }

        @Override
        public synchronized MongoCollection<Integer> createCollectionOrThrowIfExists(String name, CollectionOptions options) {
            return super.createCollectionOrThrowIfExists(name, options);
        }

        @Override
        protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
            return new SnapshotMemoryCollection(this, collectionName, options, cursors);
        }
    }

    // The in-memory collection's findAndModify answers with the stored document itself, which the
    // wire layer serialises after the collection's lock is released: a concurrent update could
    // change it first, so one of 15 concurrent $inc calls read 13 where it had written 10 (the auth
    // throttle test, under load). A real MongoDB answers with the document as of its own update;
    // so does this copy, taken under the lock.
    static final class SnapshotMemoryCollection extends MemoryCollection {
        SnapshotMemoryCollection(MongoDatabase database, String name, CollectionOptions options, CursorRegistry cursors) {
            super(database, name, options, cursors);
        }

        @Override
        public synchronized Document findAndModify(Document query) {
            Document result = super.findAndModify(query);
            return result == null ? null : result.cloneDeeply();
        }
    }
}
