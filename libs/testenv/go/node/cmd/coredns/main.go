// Command coredns is the cluster DNS of the testenv node: CoreDNS with only the plugins a cluster DNS needs.
//
// CoreDNS's own main imports every plugin (core/plugin), cloud providers included; this one imports a short
// list and sets the plugin chain order to match CoreDNS's plugin.cfg for those plugins. There is no `forward`
// plugin on purpose: the node's DNS answers for the cluster and its hosts file and never asks an upstream
// server (traffic must stay on this machine).
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	// The plugins of this build. Each registers itself in its package's init.
	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/hosts"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/loop"
	_ "github.com/coredns/coredns/plugin/metrics"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/reload"
	_ "github.com/coredns/coredns/plugin/whoami"
)

// directives is the order a query runs through the plugins: the order of these names in CoreDNS's plugin.cfg
// (a plugin sees the effects of every plugin after it). `prometheus` is the directive of plugin/metrics;
// `metadata` and `transfer` are not imported here but come with the kubernetes plugin, so they are ordered too.
var directives = []string{
	"metadata",
	"reload",
	"bind",
	"ready",
	"health",
	"prometheus",
	"errors",
	"log",
	"loadbalance",
	"cache",
	"transfer",
	"hosts",
	"kubernetes",
	"loop",
	"whoami",
}

func main() {
	// Read when a Corefile is parsed, not at registration: setting it before Run is enough.
	dnsserver.Directives = directives
	coremain.Run()
}
