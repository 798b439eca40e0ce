// The controller-runtime contender of `npm run bench:controller` (bench/controller/run.ts): a
// controller of ConfigMaps built with controller-runtime's builder and manager, default options but
// for the ones the harness turns (priority queue, warm replicas, leader election). It speaks JSON
// lines on stdout, as bench/controller/rxController.ts does; times are CLOCK_MONOTONIC in ms.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap/zapcore"
	"golang.org/x/sys/unix"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// freshAnnotation marks the change whose latency is measured (bench/controller/protocol.ts).
const freshAnnotation = "bench.rx-informer.dev/fresh"

func nowMs() float64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return float64(ts.Nano()) / 1e6
}

func cpuMs() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

var outMu sync.Mutex

func emit(v map[string]any) {
	outMu.Lock()
	defer outMu.Unlock()
	b, _ := json.Marshal(v)
	os.Stdout.Write(append(b, '\n'))
}

func main() {
	// --kubeconfig is controller-runtime's own flag, read by ctrl.GetConfig as a user's main does.
	n := flag.Int("n", 0, "objects: emit \"all\" once this many distinct objects were reconciled")
	mark := flag.Int("mark", 0, "emit \"mark\" once this many distinct objects were reconciled (0: never)")
	costMs := flag.Float64("cost-ms", 0, "each reconcile sleeps this long")
	priority := flag.Bool("priority", true, "UsePriorityQueue")
	fresh := flag.String("fresh", "", "namespace/name: emit \"fresh\" when a reconcile reads it with the fresh annotation")
	lease := flag.String("lease", "", "leader election on this Lease in namespace default (empty: none)")
	warm := flag.Bool("warm", false, "EnableWarmup (with -lease)")
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapcore.ErrorLevel)))

	cfg, err := ctrl.GetConfig()
	if err != nil {
		panic(err)
	}
	// The same short lease as the rx contender's (leaderElection() takes whole seconds).
	leaseDuration, renewDeadline, retryPeriod := 2*time.Second, 1500*time.Millisecond, 500*time.Millisecond
	options := ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{UsePriorityQueue: priority, EnableWarmup: warm},
	}
	if *lease != "" {
		options.LeaderElection = true
		options.LeaderElectionID = *lease
		options.LeaderElectionNamespace = "default"
		options.LeaseDuration = &leaseDuration
		options.RenewDeadline = &renewDeadline
		options.RetryPeriod = &retryPeriod
	}
	mgr, err := ctrl.NewManager(cfg, options)
	if err != nil {
		panic(err)
	}
	var freshKey types.NamespacedName
	if *fresh != "" {
		parts := strings.SplitN(*fresh, "/", 2)
		freshKey = types.NamespacedName{Namespace: parts[0], Name: parts[1]}
	}
	var mu sync.Mutex
	seen := make(map[types.NamespacedName]struct{}, *n)
	reconciles := 0
	freshDone := false
	cpuAtStart := 0.0
	cost := time.Duration(*costMs * float64(time.Millisecond))
	reader := mgr.GetClient()
	r := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var cm corev1.ConfigMap
		if err := reader.Get(ctx, req.NamespacedName, &cm); client.IgnoreNotFound(err) != nil {
			return reconcile.Result{}, err
		}
		if cost > 0 {
			time.Sleep(cost)
		}
		now := nowMs()
		mu.Lock()
		defer mu.Unlock()
		reconciles++
		if reconciles == 1 {
			emit(map[string]any{"type": "first", "t": now})
		}
		if !freshDone && req.NamespacedName == freshKey && cm.Annotations[freshAnnotation] != "" {
			freshDone = true
			emit(map[string]any{"type": "fresh", "t": now, "reconciles": reconciles})
		}
		if _, ok := seen[req.NamespacedName]; !ok {
			seen[req.NamespacedName] = struct{}{}
			if len(seen) == *mark {
				emit(map[string]any{"type": "mark", "t": now})
			}
			if len(seen) == *n {
				emit(map[string]any{"type": "all", "t": now, "cpuMs": cpuMs() - cpuAtStart, "reconciles": reconciles})
			}
		}
		return reconcile.Result{}, nil
	})
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).WithOptions(controller.Options{MaxConcurrentReconciles: 1}).Complete(r); err != nil {
		panic(err)
	}
	ctx := ctrl.SetupSignalHandler()
	go func() {
		<-mgr.Elected()
		emit(map[string]any{"type": "leader", "t": nowMs()})
	}()
	cpuAtStart = cpuMs()
	emit(map[string]any{"type": "start", "t": nowMs()})
	if *lease != "" {
		go standby(ctx, mgr.GetCache(), *warm)
	}
	if err := mgr.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// standby emits "standby" once a follower is ready for a failover: with warm replicas, once the
// controller's ConfigMap informer (started by the warm-up, shared through the cache) has synced;
// without, at once (it has nothing to prepare).
func standby(ctx context.Context, c cache.Cache, warm bool) {
	if warm {
		for {
			informer, err := c.GetInformer(ctx, &corev1.ConfigMap{}, cache.BlockUntilSynced(false))
			if err == nil && informer.HasSynced() {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	emit(map[string]any{"type": "standby", "t": nowMs()})
}
