// Command informer-bench measures a client-go SharedInformer on the workload of
// libs/reconcile/bench/informer-peer.ts, so the numbers compare: it lists and watches the ConfigMaps of one
// namespace with a namespace-scoped informer factory, times the span from Start to HasSynced, and reports the
// live heap the cache added (HeapAlloc after two forced collections, before Start and after sync) per object.
// It prints one JSON object; run it once per measurement, in a fresh process.
//
//	go run ./cmd/informer-bench -kubeconfig ../../../.testenv/kubeconfig -namespace bench-1000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

type result struct {
	SyncMs         float64 `json:"syncMs"`
	HeapBytes      int64   `json:"heapBytes"`
	Objects        int     `json:"objects"`
	BytesPerObject float64 `json:"bytesPerObject"`
}

// heapAlloc is the live heap after two forced collections (the second sweeps what the first's finalizers freed).
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return stats.HeapAlloc
}

// stripManagedFields drops metadata.managedFields, as controller-runtime's common cache transform does.
func stripManagedFields(obj interface{}) (interface{}, error) {
	if accessor, err := meta.Accessor(obj); err == nil {
		accessor.SetManagedFields(nil)
	}
	return obj, nil
}

func run(kubeconfig, namespace string, strip bool, timeout time.Duration) (result, error) {
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return result{}, fmt.Errorf("kubeconfig: %w", err)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return result{}, fmt.Errorf("client: %w", err)
	}
	options := []informers.SharedInformerOption{informers.WithNamespace(namespace)}
	if strip {
		options = append(options, informers.WithTransform(stripManagedFields))
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, options...)
	informer := factory.Core().V1().ConfigMaps().Informer()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	before := heapAlloc()
	start := time.Now()
	factory.Start(ctx.Done())
	// cache.WaitForCacheSync polls every 100 ms, which would round the figure up; poll at 1 ms instead.
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	for !informer.HasSynced() {
		select {
		case <-ctx.Done():
			return result{}, fmt.Errorf("informer did not sync within %s", timeout)
		case <-ticker.C:
		}
	}
	elapsed := time.Since(start)
	after := heapAlloc()

	objects := len(informer.GetStore().ListKeys())
	heap := int64(after) - int64(before)
	perObject := 0.0
	if objects > 0 {
		perObject = float64(heap) / float64(objects)
	}
	runtime.KeepAlive(factory)
	return result{
		SyncMs:         float64(elapsed.Microseconds()) / 1000,
		HeapBytes:      heap,
		Objects:        objects,
		BytesPerObject: perObject,
	}, nil
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "admin kubeconfig of the apiserver")
	namespace := flag.String("namespace", "default", "namespace whose ConfigMaps are cached")
	strip := flag.Bool("strip-managed-fields", false, "drop metadata.managedFields before caching (a transform)")
	timeout := flag.Duration("timeout", 5*time.Minute, "give up when the cache has not synced by then")
	flag.Parse()
	if *kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "informer-bench: -kubeconfig is required")
		os.Exit(2)
	}
	res, err := run(*kubeconfig, *namespace, *strip, *timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "informer-bench:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		fmt.Fprintln(os.Stderr, "informer-bench:", err)
		os.Exit(1)
	}
}
