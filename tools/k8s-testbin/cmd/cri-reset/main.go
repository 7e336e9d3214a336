// cri-reset stops and removes every pod sandbox of a CRI runtime, as `crictl rmp -af` would
// (crictl is not on the module proxy here). scripts/node.sh down runs it after kubelet has
// stopped, so each sandbox's network is torn down through CNI (veth, IP lease, portmap rules)
// and its netns mount removed, instead of leaving them behind on the host.
//
//	cri-reset unix:///path/to/containerd.sock
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	runtime "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: cri-reset unix:///path/to/runtime.sock")
		os.Exit(2)
	}
	if err := reset(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "cri-reset:", err)
		os.Exit(1)
	}
}

func reset(endpoint string) error {
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := runtime.NewRuntimeServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	list, err := client.ListPodSandbox(ctx, &runtime.ListPodSandboxRequest{})
	if err != nil {
		return fmt.Errorf("list sandboxes: %w", err)
	}
	failed := 0
	for _, sb := range list.Items {
		name := sb.Metadata.Namespace + "/" + sb.Metadata.Name
		if _, err := client.StopPodSandbox(ctx, &runtime.StopPodSandboxRequest{PodSandboxId: sb.Id}); err != nil {
			fmt.Fprintf(os.Stderr, "cri-reset: stop %s: %v\n", name, err)
			failed++
			continue
		}
		if _, err := client.RemovePodSandbox(ctx, &runtime.RemovePodSandboxRequest{PodSandboxId: sb.Id}); err != nil {
			fmt.Fprintf(os.Stderr, "cri-reset: remove %s: %v\n", name, err)
			failed++
			continue
		}
		fmt.Printf("removed sandbox %s\n", name)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d sandboxes not removed", failed, len(list.Items))
	}
	return nil
}
