// Command client-go-bench is the client-go contender of `npm run bench`: a SharedInformerFactory
// ConfigMap informer over the workload server, reporting sync time, memory, and when the
// benchmark's annotated MODIFIED events reach its UpdateFunc. Protocol: JSON lines on stdout,
// commands ("measure", "exit") on stdin; see bench/protocol.ts.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

const seqAnnotation = "bench.rx-informer.dev/seq"
const timeAnnotation = "bench.rx-informer.dev/t"

func nowMs() float64 { return float64(time.Now().UnixNano()) / 1e6 }

var outMu sync.Mutex

func emit(v map[string]any) {
	outMu.Lock()
	defer outMu.Unlock()
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\n'))
}

func heapAfterGC() uint64 {
	var m runtime.MemStats
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	debug.FreeOSMemory()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func maxRSS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss * 1024
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here (go tool pprof)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cfg.QPS = 1e6
	cfg.Burst = 1e6
	client := kubernetes.NewForConfigOrDie(cfg)

	baseline := heapAfterGC()
	start := nowMs()
	factory := informers.NewSharedInformerFactory(client, 0)
	inf := factory.Core().V1().ConfigMaps().Informer()

	// The measuring state: which seq ends the run, and latency samples.
	var mu sync.Mutex
	target := -1
	var latencies []float64
	recording := false
	done := make(chan struct{})
	var lastSeen float64
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, newObj any) {
			cm := newObj.(*corev1.ConfigMap)
			s, ok := cm.Annotations[seqAnnotation]
			if !ok {
				return
			}
			now := nowMs()
			seq, _ := strconv.Atoi(s)
			mu.Lock()
			defer mu.Unlock()
			if recording {
				if t, err := strconv.ParseFloat(cm.Annotations[timeAnnotation], 64); err == nil {
					latencies = append(latencies, now-t)
				}
			}
			if target >= 0 && seq == target {
				lastSeen = now
				target = -1
				close(done)
			}
		},
	})
	stop := make(chan struct{})
	factory.Start(stop)
	// cache.WaitForCacheSync polls every 100 ms, which would round every sync time up; poll at 1 ms.
	for !inf.HasSynced() {
		time.Sleep(time.Millisecond)
	}
	synced := nowMs()
	count := len(inf.GetStore().ListKeys())
	heap := heapAfterGC()
	emit(map[string]any{"type": "synced", "start": start, "synced": synced, "count": count, "heapBaseline": baseline, "heapAfterGC": heap, "maxRSS": maxRSS()})

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var cmd struct {
			Type   string `json:"type"`
			Last   int    `json:"last"`
			Record bool   `json:"record"`
		}
		if err := json.Unmarshal(in.Bytes(), &cmd); err != nil {
			continue
		}
		switch cmd.Type {
		case "measure":
			mu.Lock()
			target = cmd.Last
			recording = cmd.Record
			latencies = latencies[:0]
			done = make(chan struct{})
			d := done
			mu.Unlock()
			emit(map[string]any{"type": "armed"})
			go func() {
				<-d
				mu.Lock()
				lat := append([]float64(nil), latencies...)
				seen := lastSeen
				mu.Unlock()
				emit(map[string]any{"type": "measured", "lastSeen": seen, "latencies": lat, "maxRSS": maxRSS()})
			}()
		case "exit":
			pprof.StopCPUProfile()
			close(stop)
			os.Exit(0)
		}
	}
}
