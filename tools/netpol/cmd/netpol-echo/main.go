// netpol-echo is the one program of the image the network-policy test runs (scripts/netpol.sh
// builds it): no image with a shell, nc or a real database can be pulled here, and the test needs a
// server that answers on MongoDB's and Kafka's ports and a client whose exit code says whether a
// connection got through. The greeting names the server, so a dial that succeeds proves it reached
// that pod and not whatever else listens on the address.
//
//	netpol-echo serve PORT...    answer "edu-netpol <hostname> <port>\n" on each TCP port
//	netpol-echo dial HOST:PORT   connect (2 s deadline), print the greeting; exit 1 if refused,
//	                             dropped or silent
//	netpol-echo sleep            block until SIGTERM (a long-running client pod for kubectl exec)
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Short enough that a policy's silent DROP fails a probe quickly; long for a local bridge.
const dialTimeout = 2 * time.Second

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "dial":
		if len(os.Args) != 3 {
			usage()
		}
		err = dial(os.Args[2])
	case "sleep":
		waitForSignal()
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "netpol-echo:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: netpol-echo serve PORT... | dial HOST:PORT | sleep")
	os.Exit(2)
}

func waitForSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	<-ch
}

func serve(ports []string) error {
	if len(ports) == 0 {
		usage()
	}
	host, _ := os.Hostname()
	for _, p := range ports {
		ln, err := net.Listen("tcp", ":"+p)
		if err != nil {
			return err
		}
		fmt.Printf("listening on %s\n", ln.Addr())
		go accept(ln, fmt.Sprintf("edu-netpol %s %s\n", host, p))
	}
	waitForSignal()
	return nil
}

func accept(ln net.Listener, greeting string) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "netpol-echo: accept:", err)
			return
		}
		go func() {
			defer conn.Close()
			_ = conn.SetWriteDeadline(time.Now().Add(dialTimeout))
			_, _ = conn.Write([]byte(greeting))
		}()
	}
}

func dial(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(dialTimeout))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return fmt.Errorf("connected to %s but no greeting: %w", addr, err)
	}
	fmt.Print(line)
	return nil
}
