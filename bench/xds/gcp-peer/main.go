// gcp-peer: a go-control-plane ADS server for bench/xds (a test peer, not product code).
//
// It serves one Envoy node over ADS (state-of-the-world and delta, both on the same gRPC server) from a
// go-control-plane snapshot cache (ads=true). The resources come from the bench: each `load` command names two
// files, each an encoded envoy.service.discovery.v3.DiscoveryResponse whose `resources` are the Clusters (resp.
// the Listeners) that @oooi/envoy translated, so this server and oooi-xds serve the same resources.
//
// Protocol: commands on stdin, one per line; events on stdout, one JSON object per line.
//
//	load CLUSTERS.pb LISTENERS.pb   decode, build the snapshot (per-type content versions), Consistent(), SetSnapshot
//	quit                            exit
//
//	{"ev":"ready","port":N}
//	{"ev":"set","seq":N,"decodeMs":..,"buildMs":..,"consistentMs":..,"setMs":..,"clusterVersion":..,"listenerVersion":..}
//	{"ev":"acked","seq":N,"sinceLoadMs":..,"sinceSetMs":..,"cdsMs":..,"ldsMs":..}   Envoy ACKed both types at the
//	  versions of load N (cdsMs, ldsMs: when each type's ACK came, from SetSnapshot; 0 for a type that did not change)
//	{"ev":"nack","type":..,"version":..,"message":..}
//	{"ev":"error","message":..}
//
// Versions: each type's version is the sha256 of its resources' deterministic encodings in name order (a type
// that did not change keeps its version, as in oooi-xds), computed inside the timed build.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/listener/tls_inspector/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	_ "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	discovery "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	"github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"github.com/envoyproxy/go-control-plane/pkg/server/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/protobuf/proto"
)

var out = struct {
	sync.Mutex
	enc *json.Encoder
}{enc: json.NewEncoder(os.Stdout)}

func emit(v map[string]any) {
	out.Lock()
	defer out.Unlock()
	_ = out.enc.Encode(v)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// tracker records what Envoy ACKed per type and reports when the versions of the last load are all ACKed.
type tracker struct {
	mu       sync.Mutex
	acked    map[string]string
	seq      int
	want     map[string]string
	loadedAt time.Time
	setAt    time.Time
	at       map[string]time.Time
	done     bool
	// delta: nonce -> (type, version) of each response sent, per stream
	nonces map[int64]map[string][2]string
}

func (t *tracker) expect(seq int, want map[string]string, loadedAt, setAt time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq, t.want, t.loadedAt, t.setAt, t.done = seq, want, loadedAt, setAt, false
	t.at = map[string]time.Time{}
	for typ, v := range want {
		if t.acked[typ] == v {
			t.at[typ] = setAt
		}
	}
	t.check(time.Now())
}

func (t *tracker) ack(typeURL, version string) {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.acked[typeURL] = version
	if t.want != nil && !t.done && t.want[typeURL] == version {
		t.at[typeURL] = now
	}
	t.check(now)
}

// check must be called with mu held.
func (t *tracker) check(now time.Time) {
	if t.done || t.want == nil {
		return
	}
	for typ, v := range t.want {
		if t.acked[typ] != v {
			return
		}
	}
	t.done = true
	emit(map[string]any{"ev": "acked", "seq": t.seq, "sinceLoadMs": ms(now.Sub(t.loadedAt)), "sinceSetMs": ms(now.Sub(t.setAt)),
		"cdsMs": ms(t.at[resource.ClusterType].Sub(t.setAt)), "ldsMs": ms(t.at[resource.ListenerType].Sub(t.setAt))})
}

func (t *tracker) callbacks() server.CallbackFuncs {
	return server.CallbackFuncs{
		StreamRequestFunc: func(_ int64, req *discovery.DiscoveryRequest) error {
			if req.GetResponseNonce() == "" {
				return nil
			}
			if req.GetErrorDetail() != nil {
				emit(map[string]any{"ev": "nack", "type": req.GetTypeUrl(), "version": req.GetVersionInfo(), "message": req.GetErrorDetail().GetMessage()})
				return nil
			}
			t.ack(req.GetTypeUrl(), req.GetVersionInfo())
			return nil
		},
		StreamDeltaResponseFunc: func(id int64, _ *discovery.DeltaDiscoveryRequest, resp *discovery.DeltaDiscoveryResponse) {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.nonces[id] == nil {
				t.nonces[id] = map[string][2]string{}
			}
			t.nonces[id][resp.GetNonce()] = [2]string{resp.GetTypeUrl(), resp.GetSystemVersionInfo()}
		},
		StreamDeltaRequestFunc: func(id int64, req *discovery.DeltaDiscoveryRequest) error {
			if req.GetResponseNonce() == "" {
				return nil
			}
			t.mu.Lock()
			sent, ok := t.nonces[id][req.GetResponseNonce()]
			delete(t.nonces[id], req.GetResponseNonce())
			t.mu.Unlock()
			if !ok {
				return nil
			}
			if req.GetErrorDetail() != nil {
				emit(map[string]any{"ev": "nack", "type": sent[0], "version": sent[1], "message": req.GetErrorDetail().GetMessage()})
				return nil
			}
			t.ack(sent[0], sent[1])
			return nil
		},
		DeltaStreamClosedFunc: func(id int64, _ *corev3.Node) {
			t.mu.Lock()
			defer t.mu.Unlock()
			delete(t.nonces, id)
		},
	}
}

// readResources decodes one DiscoveryResponse file into its resources (Clusters or Listeners).
func readResources(path string, newMsg func() proto.Message) ([]types.Resource, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var resp discovery.DiscoveryResponse
	if err := proto.Unmarshal(b, &resp); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	res := make([]types.Resource, 0, len(resp.GetResources()))
	for _, a := range resp.GetResources() {
		m := newMsg()
		if err := a.UnmarshalTo(m); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		res = append(res, m.(types.Resource))
	}
	return res, nil
}

// typeVersion hashes the resources' deterministic encodings in name order.
func typeVersion(res []types.Resource) (string, error) {
	sorted := append([]types.Resource(nil), res...)
	sort.Slice(sorted, func(i, j int) bool { return cache.GetResourceName(sorted[i]) < cache.GetResourceName(sorted[j]) })
	h := sha256.New()
	for _, r := range sorted {
		b, err := cache.MarshalResource(r)
		if err != nil {
			return "", err
		}
		h.Write([]byte(cache.GetResourceName(r)))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

type loader struct {
	snaps cache.SnapshotCache
	node  string
	track *tracker
	seq   int
}

func (l *loader) load(clustersPath, listenersPath string) error {
	t0 := time.Now()
	clusters, err := readResources(clustersPath, func() proto.Message { return &clusterv3.Cluster{} })
	if err != nil {
		return err
	}
	listeners, err := readResources(listenersPath, func() proto.Message { return &listenerv3.Listener{} })
	if err != nil {
		return err
	}
	t1 := time.Now()
	cv, err := typeVersion(clusters)
	if err != nil {
		return err
	}
	lv, err := typeVersion(listeners)
	if err != nil {
		return err
	}
	snap := &cache.Snapshot{}
	snap.Resources[types.Cluster] = cache.NewResources(cv, clusters)
	snap.Resources[types.Listener] = cache.NewResources(lv, listeners)
	t2 := time.Now()
	if err := snap.Consistent(); err != nil {
		return fmt.Errorf("snapshot inconsistent: %w", err)
	}
	t3 := time.Now()
	l.seq++
	// expect before SetSnapshot: an ACK may arrive before SetSnapshot returns
	l.track.expect(l.seq, map[string]string{resource.ClusterType: cv, resource.ListenerType: lv}, t0, t3)
	emitSet := map[string]any{"ev": "set", "seq": l.seq, "decodeMs": ms(t1.Sub(t0)), "buildMs": ms(t2.Sub(t1)),
		"consistentMs": ms(t3.Sub(t2)), "clusterVersion": cv, "listenerVersion": lv,
		"clusters": len(clusters), "listeners": len(listeners)}
	if err := l.snaps.SetSnapshot(context.Background(), l.node, snap); err != nil {
		return err
	}
	emitSet["setMs"] = ms(time.Since(t3))
	emit(emitSet)
	return nil
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "ADS listen address")
	node := flag.String("node", "bench", "Envoy node id to serve")
	flag.Parse()

	track := &tracker{acked: map[string]string{}, nonces: map[int64]map[string][2]string{}}
	snaps := cache.NewSnapshotCache(true, cache.IDHash{}, nil)
	srv := server.NewServer(context.Background(), snaps, track.callbacks())
	g := grpc.NewServer(
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 30 * time.Second, Timeout: 10 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 5 * time.Second, PermitWithoutStream: true}),
	)
	discovery.RegisterAggregatedDiscoveryServiceServer(g, srv)
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go func() { _ = g.Serve(lis) }()
	emit(map[string]any{"ev": "ready", "port": lis.Addr().(*net.TCPAddr).Port})

	l := &loader{snaps: snaps, node: *node, track: track}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch {
		case len(f) == 3 && f[0] == "load":
			if err := l.load(f[1], f[2]); err != nil {
				emit(map[string]any{"ev": "error", "message": err.Error()})
			}
		case len(f) == 1 && f[0] == "quit":
			g.Stop()
			return
		case len(f) > 0:
			emit(map[string]any{"ev": "error", "message": "unknown command: " + in.Text()})
		}
	}
	g.Stop()
}
