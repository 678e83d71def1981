package stripestub

import (
	"html/template"
	"net/http"

	"github.com/nocturne/storefront/internal/shop"
)

// The hosted page is plain HTML with two forms, so a text browser or a
// browser with JavaScript off can pay, as it can on Stripe's own page.
var pageTmpl = template.Must(template.New("pay").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} - Stripe stand-in</title>
</head>
<body>
<main>
<p>Test mode: a stand-in for Stripe Checkout. No card is charged.</p>
<h1>{{.Title}}</h1>
{{with .Email}}<p>Receipt to {{.}}</p>{{end}}
<table>
<thead><tr><th scope="col">Item</th><th scope="col">Qty</th><th scope="col">Amount</th></tr></thead>
<tbody>
{{range .Lines}}<tr><td>{{.Name}}</td><td>{{.Quantity}}</td><td>{{.Amount}}</td></tr>
{{end}}</tbody>
<tfoot>
{{with .Discount}}<tr><th scope="row" colspan="2">Discount</th><td>-{{.}}</td></tr>
{{end}}<tr><th scope="row" colspan="2">Total due</th><td>{{.Total}}</td></tr>
</tfoot>
</table>
{{if .Open}}
<form method="post" action="/pay/{{.ID}}/pay"><button type="submit">Pay {{.Total}}</button></form>
<form method="post" action="/pay/{{.ID}}/cancel"><button type="submit">Cancel</button></form>
{{else if .Paid}}
<p>This payment is complete.</p>
<p><a href="{{.SuccessURL}}">Return to the shop</a></p>
{{else}}
<p>This checkout session has expired.</p>
{{with .CancelURL}}<p><a href="{{.}}">Return to the shop</a></p>{{end}}
{{end}}
</main>
</body>
</html>
`))

type pageLine struct {
	Name     string
	Quantity int64
	Amount   string
}

type pageData struct {
	ID, Title, Email      string
	Lines                 []pageLine
	Discount, Total       string
	Open, Paid            bool
	SuccessURL, CancelURL string
}

// formatAmount writes minor units as the shop writes money: the stand-in
// serves one shop, and its sessions are in that shop's currency.
func formatAmount(c int64) string { return shop.Cents(c).String() }

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cs, found := s.sessions[r.PathValue("id")]
	if !found {
		s.mu.Unlock()
		http.Error(w, "No such checkout session.", http.StatusNotFound)
		return
	}
	ev := s.expireIfDue(cs)
	d := pageData{
		ID:         cs.id,
		Title:      "Checkout",
		Email:      cs.customerEmail,
		Total:      formatAmount(cs.amountTotal),
		Open:       cs.status == stateOpen,
		Paid:       cs.paymentStatus == "paid",
		SuccessURL: cs.successTarget(),
		CancelURL:  cs.cancelURL,
	}
	if cs.amountDiscount > 0 {
		d.Discount = formatAmount(cs.amountDiscount)
	}
	for _, l := range cs.lines {
		d.Lines = append(d.Lines, pageLine{Name: l.name, Quantity: l.quantity, Amount: formatAmount(l.unitAmount * l.quantity)})
	}
	s.mu.Unlock()
	s.deliver([]*event{ev})

	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = pageTmpl.Execute(w, d)
}

// payAction is the Pay button: the session is paid, the completed event is
// delivered, and only then is the shopper sent to the success URL, so the
// shop has heard of the payment by the time its success page loads. A
// second press (a double click, the back button) goes to the success URL
// again without paying twice.
func (s *Server) payAction(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cs, found := s.sessions[r.PathValue("id")]
	if !found {
		s.mu.Unlock()
		http.Error(w, "No such checkout session.", http.StatusNotFound)
		return
	}
	var evs []*event
	if ev := s.expireIfDue(cs); ev != nil {
		evs = append(evs, ev)
	}
	status, target := cs.status, cs.successTarget()
	if status == stateOpen {
		evs = append(evs, s.complete(cs))
	}
	s.mu.Unlock()
	s.deliver(evs)

	if status == stateExpired {
		http.Error(w, "This checkout session has expired.", http.StatusGone)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// cancelAction is the Cancel button: back to the shop, nothing changed (on
// Stripe's page too, leaving does not expire the session).
func (s *Server) cancelAction(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	cs, found := s.sessions[r.PathValue("id")]
	var target string
	if found {
		target = cs.cancelURL
	}
	s.mu.Unlock()
	switch {
	case !found:
		http.Error(w, "No such checkout session.", http.StatusNotFound)
	case target == "":
		http.Error(w, "This checkout session has no cancel URL.", http.StatusNotFound)
	default:
		http.Redirect(w, r, target, http.StatusSeeOther)
	}
}
