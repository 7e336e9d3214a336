/* The sandbox ("pause") process of every pod on the local node: it holds the pod's namespaces,
 * reaps orphans re-parented to it (it is PID 1 when the pod shares its PID namespace), and
 * exits cleanly on SIGINT/SIGTERM so a pod stops at once rather than after a kill timeout.
 * Written for this project, after the behaviour of Kubernetes' build/pause; built static so
 * the image needs no libc (scripts/node.sh build). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) {
  (void)sig;
  _exit(0);
}

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "-v") == 0) {
    puts("edu-platform pause 1.0");
    return 0;
  }
  if (getpid() != 1)
    fprintf(stderr, "warning: pause should be the first process\n");
  struct sigaction stop = {.sa_handler = on_stop};
  struct sigaction child = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};
  if (sigaction(SIGINT, &stop, NULL) < 0 || sigaction(SIGTERM, &stop, NULL) < 0 ||
      sigaction(SIGCHLD, &child, NULL) < 0) {
    perror("sigaction");
    return 1;
  }
  for (;;)
    pause();
}
