// service: a small JSON-over-HTTP order service, the program of make
// bench-macro's service macro (scripts/bench_service.py), which loads it
// with hey. POST /order takes an order as JSON, prices its lines against a
// catalogue, adds it to its customer's account (a map under a mutex) and
// answers with the priced order and the account's totals; GET /account?id=
// returns one account. Work per request as in many real services: JSON
// decoding and encoding, map lookups, a few allocations, a lock.
//
// usage: service ADDR   (e.g. 127.0.0.1:0); prints "listening on HOST:PORT"
// once it accepts connections, and exits 0 on SIGTERM or SIGINT.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
)

type line struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"qty"`
}

type order struct {
	Customer string `json:"customer"`
	Lines    []line `json:"lines"`
	Coupon   string `json:"coupon,omitempty"`
}

type pricedLine struct {
	SKU      string `json:"sku"`
	Name     string `json:"name"`
	Quantity int    `json:"qty"`
	Cents    int64  `json:"cents"`
}

type account struct {
	Customer   string         `json:"customer"`
	Orders     int            `json:"orders"`
	SpentCents int64          `json:"spent_cents"`
	BySKU      map[string]int `json:"by_sku"`
}

type reply struct {
	Customer   string       `json:"customer"`
	Lines      []pricedLine `json:"lines"`
	TotalCents int64        `json:"total_cents"`
	Discount   int64        `json:"discount_cents"`
	Account    account      `json:"account"`
	TopSKUs    []string     `json:"top_skus"`
}

type product struct {
	name  string
	cents int64
}

type store struct {
	catalogue map[string]product
	mu        sync.Mutex
	accounts  map[string]*account
}

func newStore() *store {
	s := &store{catalogue: map[string]product{}, accounts: map[string]*account{}}
	for i := 0; i < 500; i++ {
		sku := fmt.Sprintf("sku-%03d", i)
		s.catalogue[sku] = product{name: "Product " + strings.ToUpper(sku), cents: int64(99 + i*37%5000)}
	}
	return s
}

func (s *store) price(o *order) ([]pricedLine, int64, error) {
	lines := make([]pricedLine, 0, len(o.Lines))
	var total int64
	for _, l := range o.Lines {
		p, ok := s.catalogue[l.SKU]
		if !ok {
			return nil, 0, fmt.Errorf("unknown sku %q", l.SKU)
		}
		if l.Quantity <= 0 {
			return nil, 0, fmt.Errorf("sku %q: quantity %d", l.SKU, l.Quantity)
		}
		c := p.cents * int64(l.Quantity)
		lines = append(lines, pricedLine{SKU: l.SKU, Name: p.name, Quantity: l.Quantity, Cents: c})
		total += c
	}
	return lines, total, nil
}

func discount(coupon string, total int64) int64 {
	if strings.HasPrefix(coupon, "TEN") {
		return total / 10
	}
	return 0
}

// record adds the order to its customer's account and returns a copy of
// the account and its three most ordered SKUs.
func (s *store) record(customer string, lines []pricedLine, paid int64) (account, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[customer]
	if a == nil {
		a = &account{Customer: customer, BySKU: map[string]int{}}
		s.accounts[customer] = a
	}
	a.Orders++
	a.SpentCents += paid
	for _, l := range lines {
		a.BySKU[l.SKU] += l.Quantity
	}
	return snapshot(a), topSKUs(a.BySKU, 3)
}

func snapshot(a *account) account {
	c := *a
	c.BySKU = make(map[string]int, len(a.BySKU))
	for k, v := range a.BySKU {
		c.BySKU[k] = v
	}
	return c
}

func topSKUs(by map[string]int, n int) []string {
	skus := make([]string, 0, len(by))
	for k := range by {
		skus = append(skus, k)
	}
	sort.Slice(skus, func(i, j int) bool {
		if by[skus[i]] != by[skus[j]] {
			return by[skus[i]] > by[skus[j]]
		}
		return skus[i] < skus[j]
	})
	if len(skus) > n {
		skus = skus[:n]
	}
	return skus
}

func (s *store) handleOrder(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	var o order
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&o); err != nil {
		http.Error(w, "bad order: "+err.Error(), http.StatusBadRequest)
		return
	}
	lines, total, err := s.price(&o)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	off := discount(o.Coupon, total)
	acct, top := s.record(o.Customer, lines, total-off)
	writeJSON(w, reply{Customer: o.Customer, Lines: lines, TotalCents: total - off,
		Discount: off, Account: acct, TopSKUs: top})
}

func (s *store) handleAccount(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	s.mu.Lock()
	a := s.accounts[id]
	var c account
	if a != nil {
		c = snapshot(a)
	}
	s.mu.Unlock()
	if a == nil {
		http.NotFound(w, r)
		return
	}
	writeJSON(w, c)
}

func writeJSON(w http.ResponseWriter, v interface{}) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		fmt.Fprintln(os.Stderr, "service: write:", err)
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: service ADDR")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "service:", err)
		os.Exit(1)
	}
	s := newStore()
	mux := http.NewServeMux()
	mux.HandleFunc("/order", s.handleOrder)
	mux.HandleFunc("/account", s.handleAccount)
	srv := &http.Server{Handler: mux}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		srv.Shutdown(context.Background())
	}()
	fmt.Printf("listening on %s\n", ln.Addr())
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "service:", err)
		os.Exit(1)
	}
}
