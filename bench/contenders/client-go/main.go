// Command client-go-bench is the client-go contender of `npm run bench` and `npm run bench:cluster`:
// a SharedInformerFactory ConfigMap informer, reporting sync time, memory, CPU time, and when the
// benchmark's annotated MODIFIED events reach its UpdateFunc. Protocol: JSON lines on stdout,
// commands ("measure", "exit") on stdin; see bench/protocol.ts.
//
// -protobuf asks the apiserver for protobuf (as controllers built on client-go usually do for
// built-in types). The initial list is client-go's default for this version (v0.37: the streaming
// list, WatchListClient); KUBE_FEATURE_WatchListClient=false in the environment makes it LIST.
//
// -get=<path> is the GET floor instead: one GET of <path>, the body read and dropped, reported as
// "synced" with the bytes read; nothing is decoded or cached.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

const seqAnnotation = "bench.rx-informer.dev/seq"
const timeAnnotation = "bench.rx-informer.dev/t"
const protobuf = "application/vnd.kubernetes.protobuf"

// nowMs is CLOCK_MONOTONIC in milliseconds: the clock every process of the benchmark reads (bench/protocol.ts).
func nowMs() float64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return float64(ts.Nano()) / 1e6
}

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

// cpuMs is the CPU time (user + system) of the process so far, in milliseconds.
func cpuMs() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// currentRSS is VmRSS from /proc/self/status, in bytes.
func currentRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here (go tool pprof)")
	useProtobuf := flag.Bool("protobuf", false, "ask for protobuf instead of JSON")
	getPath := flag.String("get", "", "GET floor: read this path's body and report it as the sync")
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
	if *useProtobuf {
		cfg.ContentType = protobuf
		cfg.AcceptContentTypes = protobuf + ",application/json"
	}
	if *getPath != "" {
		getFloor(cfg, *getPath, *useProtobuf)
		waitForExit()
		return
	}
	client := kubernetes.NewForConfigOrDie(cfg)

	baseline := heapAfterGC()
	start := nowMs()
	factory := informers.NewSharedInformerFactory(client, 0)
	inf := factory.Core().V1().ConfigMaps().Informer()

	// The armed measurement: seqs first..last, which were seen, latency samples.
	var mu sync.Mutex
	first, left := 0, 0
	var seen []bool
	var latencies []float64
	recording := false
	var cpuAtArm float64
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
			i := seq - first
			if left == 0 || i < 0 || i >= len(seen) || seen[i] {
				return
			}
			seen[i] = true
			if recording {
				if t, err := strconv.ParseFloat(cm.Annotations[timeAnnotation], 64); err == nil {
					latencies = append(latencies, now-t)
				}
			}
			left--
			if left == 0 {
				lat := append([]float64(nil), latencies...)
				cpu := cpuMs() - cpuAtArm
				go emit(map[string]any{"type": "measured", "lastSeen": now, "cpuMs": cpu, "latencies": lat, "maxRSS": maxRSS()})
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
			First  int    `json:"first"`
			Last   int    `json:"last"`
			Record bool   `json:"record"`
		}
		if err := json.Unmarshal(in.Bytes(), &cmd); err != nil {
			continue
		}
		switch cmd.Type {
		case "measure":
			heapAfterGC()
			rss := currentRSS()
			mu.Lock()
			first = cmd.First
			left = cmd.Last - cmd.First + 1
			seen = make([]bool, left)
			recording = cmd.Record
			latencies = latencies[:0]
			cpuAtArm = cpuMs()
			mu.Unlock()
			emit(map[string]any{"type": "armed", "rss": rss})
		case "exit":
			pprof.StopCPUProfile()
			close(stop)
			os.Exit(0)
		}
	}
}

// getFloor reads one GET's body and reports it: the least time the server takes to send the list.
func getFloor(cfg *rest.Config, path string, useProtobuf bool) {
	transport, err := rest.TransportFor(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	client := &http.Client{Transport: transport}
	baseline := heapAfterGC()
	start := nowMs()
	req, _ := http.NewRequest("GET", strings.TrimSuffix(cfg.Host, "/")+path, nil)
	if useProtobuf {
		req.Header.Set("Accept", protobuf)
	} else {
		req.Header.Set("Accept", "application/json")
	}
	res, err := client.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		fmt.Fprintln(os.Stderr, "GET", path, res.StatusCode, err)
		os.Exit(1)
	}
	synced := nowMs()
	emit(map[string]any{"type": "synced", "start": start, "synced": synced, "count": -1, "bytes": n, "heapBaseline": baseline, "heapAfterGC": heapAfterGC(), "maxRSS": maxRSS()})
}

func waitForExit() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if strings.Contains(in.Text(), `"exit"`) {
			os.Exit(0)
		}
	}
}
