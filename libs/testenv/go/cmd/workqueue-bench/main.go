// Command workqueue-bench measures client-go's work queue on the workload of
// libs/reconcile/bench/queue-throughput.ts, so the two numbers compare: one producer adds -items keys
// (a fraction -duplicate-ratio of them repeating one of the 8 keys added just before), -workers goroutines
// Get and immediately Done each key, and the clock stops when ShutDownWithDrain has returned and every
// worker has seen Get report shutdown. It prints one JSON object per round.
//
//	go run ./cmd/workqueue-bench -items 1000000 -duplicate-ratio 0.1 -workers 4 -rounds 3
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/util/workqueue"
)

type result struct {
	OpsPerSecond   float64 `json:"opsPerSecond"`
	Items          int     `json:"items"`
	DistinctKeys   int     `json:"distinctKeys"`
	Processed      int64   `json:"processed"`
	Workers        int     `json:"workers"`
	DuplicateRatio float64 `json:"duplicateRatio"`
	ElapsedMs      float64 `json:"elapsedMs"`
}

// benchmarkKeys must match benchmarkKeys in libs/reconcile/bench/queue-throughput.ts.
func benchmarkKeys(items int, duplicateRatio float64) []string {
	keys := make([]string, 0, items)
	for i := 0; i < items; i++ {
		duplicate := i > 0 && math.Floor(float64(i+1)*duplicateRatio) > math.Floor(float64(i)*duplicateRatio)
		if duplicate {
			keys = append(keys, keys[max(0, i-1-(i%8))])
		} else {
			keys = append(keys, fmt.Sprintf("default/object-%d", i))
		}
	}
	return keys
}

func run(keys []string, duplicateRatio float64, workers int) result {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	var processed atomic.Int64
	var wg sync.WaitGroup

	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				key, shutdown := queue.Get()
				if shutdown {
					return
				}
				processed.Add(1)
				queue.Done(key)
			}
		}()
	}
	for _, key := range keys {
		queue.Add(key)
	}
	queue.ShutDownWithDrain()
	wg.Wait()
	elapsed := time.Since(start)

	distinct := make(map[string]struct{}, len(keys))
	for _, key := range keys {
		distinct[key] = struct{}{}
	}
	return result{
		OpsPerSecond:   float64(len(keys)) / elapsed.Seconds(),
		Items:          len(keys),
		DistinctKeys:   len(distinct),
		Processed:      processed.Load(),
		Workers:        workers,
		DuplicateRatio: duplicateRatio,
		ElapsedMs:      float64(elapsed.Microseconds()) / 1000,
	}
}

func main() {
	items := flag.Int("items", 1_000_000, "how many Add calls the producer makes")
	duplicateRatio := flag.Float64("duplicate-ratio", 0.1, "fraction of adds that repeat a recent key")
	workers := flag.Int("workers", 4, "goroutines looping on Get and Done")
	rounds := flag.Int("rounds", 3, "measured rounds, after one warm-up round")
	flag.Parse()

	keys := benchmarkKeys(*items, *duplicateRatio)
	run(keys[:min(len(keys), 100_000)], *duplicateRatio, *workers)
	encoder := json.NewEncoder(os.Stdout)
	for r := 0; r < *rounds; r++ {
		if err := encoder.Encode(run(keys, *duplicateRatio, *workers)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
