// node-probe is the one program of the probe image that scripts/node.sh builds: pods of the
// node's smoke test run it to check cluster DNS and reach host ports, since no image with a
// shell or nslookup can be pulled here. Pure Go (CGO off), so it resolves through the pod's
// /etc/resolv.conf exactly as the platform's Node.js services do, with no libc in the image.
//
//	node-probe dns NAME          print NAME's addresses; exit 1 if it does not resolve
//	node-probe tcp HOST:PORT     connect; exit 1 if the connection fails
//	node-probe sleep             block until SIGTERM (a long-running pod)
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "dns":
		err = withArg(lookup)
	case "tcp":
		err = withArg(dial)
	case "sleep":
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
		<-ch
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "node-probe:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: node-probe dns NAME | tcp HOST:PORT | sleep")
	os.Exit(2)
}

func withArg(f func(context.Context, string) error) error {
	if len(os.Args) != 3 {
		usage()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return f(ctx, os.Args[2])
}

func lookup(ctx context.Context, name string) error {
	addrs, err := net.DefaultResolver.LookupHost(ctx, name)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		fmt.Printf("%s %s\n", name, a)
	}
	return nil
}

func dial(ctx context.Context, addr string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf("connected %s -> %s\n", conn.LocalAddr(), conn.RemoteAddr())
	return conn.Close()
}
