// Command pause is PID 1 of a pod sandbox on the testenv node: the process that holds the Pod's namespaces
// open while its containers come and go. It sleeps until SIGINT or SIGTERM, then exits 0; meanwhile it reaps
// every child that exits (a PID 1 inherits the orphans of its namespace, and unreaped ones stay zombies).
//
// Built static (CGO_ENABLED=0) so it runs in an image holding only this file. `pause --version` prints the
// version stamped at link time (`-X main.version=...`) and exits.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// version is set by the build (`-ldflags '-X main.version=<hash of the source>'`).
var version = "dev"

func main() {
	if len(os.Args) > 1 {
		if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-v") {
			fmt.Printf("pause %s\n", version)
			return
		}
		fmt.Fprintf(os.Stderr, "usage: %s [--version]\n", os.Args[0])
		os.Exit(2)
	}

	signals := make(chan os.Signal, 16)
	signal.Notify(signals, syscall.SIGCHLD, syscall.SIGINT, syscall.SIGTERM)
	// Children may have exited before the handler was installed: their SIGCHLD is lost, reap them now.
	reapChildren()
	for sig := range signals {
		if sig == syscall.SIGCHLD {
			reapChildren()
			continue
		}
		fmt.Fprintf(os.Stderr, "pause: got %v, exiting\n", sig)
		os.Exit(0)
	}
}

// reapChildren collects every exited child without blocking. Signals coalesce (one SIGCHLD may stand for many
// exits), so it loops until no exited child is left.
func reapChildren() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || pid <= 0 {
			return // ECHILD: no children at all; 0: children remain, none has exited.
		}
	}
}
