package shop

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/bojanz/currency"
)

// Cents is an amount of money in the minor units of the shop's currency
// (ISO 4217's smallest unit): cents of a dollar or a euro, whole yen (the
// yen has nothing smaller), fils of a Kuwaiti dinar (a thousandth). The
// name is the common case; the currency says what one unit is worth.
// Money is never a float: sums and percentages stay exact.
type Cents int64

// String formats c in the shop's currency for its locale: "$1,234.56"
// (USD, en-US), "1.234,56 €" (EUR, de-DE), "¥1,235" (JPY, en-US).
func (c Cents) String() string { return CurrentCurrency().Format(c) }

// Whole formats c like String, but without a fraction of zeros: "$50",
// "$12.50".
func (c Cents) Whole() string { return CurrentCurrency().FormatWhole(c) }

// Currency is a currency as the shop writes it: its ISO 4217 code, how
// many minor digits it has, and the locale its amounts are formatted for.
// The zero Currency is not usable; NewCurrency makes one.
type Currency struct {
	code    string
	locale  currency.Locale
	digits  int
	unit    int64 // 10^digits: one major unit in minor units
	symbol  string
	decimal string
	// full writes every minor digit; whole writes none, for amounts
	// without a fraction.
	full, whole *written
}

// written is a formatter and the amounts it has already written. The
// formatter takes microseconds and a dozen allocations an amount, and a
// page writes the same few prices again and again, so each text is made
// once (up to rememberAmounts of them; past that, amounts are formatted
// every time).
type written struct {
	f    *currency.Formatter
	mu   sync.RWMutex
	text map[Cents]string
}

const rememberAmounts = 4096

func newWritten(f *currency.Formatter) *written {
	return &written{f: f, text: map[Cents]string{}}
}

// NewCurrency returns the currency with the ISO 4217 code (any case),
// formatted for locale, a BCP 47 tag such as "en-US" or "de-DE". The
// locale is taken as given: the configuration checks it against the
// languages that exist, and one the currency data has no format for is
// written as English.
func NewCurrency(code, locale string) (Currency, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	digits, ok := currency.GetDigits(code)
	if !ok {
		return Currency{}, Errorf(EINVALID, "%q is not an ISO 4217 currency code", code)
	}
	l := currency.NewLocale(locale)
	if l.IsEmpty() {
		return Currency{}, Errorf(EINVALID, "the locale is empty")
	}
	c := Currency{code: code, locale: l, digits: int(digits), unit: 1}
	for range c.digits {
		c.unit *= 10
	}
	whole := currency.NewFormatter(l)
	whole.MinDigits = 0
	c.full, c.whole = newWritten(currency.NewFormatter(l)), newWritten(whole)
	c.symbol, _ = currency.GetSymbol(code, l)
	// The separator is whatever the locale writes between 1 and 5.
	plain := currency.NewFormatter(l)
	plain.CurrencyDisplay, plain.NoGrouping, plain.MinDigits = currency.DisplayNone, true, 1
	half, _ := currency.NewAmount("1.5", code)
	c.decimal = strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) || unicode.Is(unicode.Cf, r) {
			return -1 // digits, and marks of writing direction
		}
		return r
	}, plain.Format(half))
	return c, nil
}

// Code is the currency's ISO 4217 code in upper case: "USD".
func (c Currency) Code() string { return c.code }

// Locale is the locale amounts are formatted for: "en-US".
func (c Currency) Locale() string { return c.locale.String() }

// Digits is how many minor digits the currency has: 2 for USD, 0 for
// JPY, 3 for KWD.
func (c Currency) Digits() int { return c.digits }

// Unit is one major unit in minor units: 100 for USD, 1 for JPY.
func (c Currency) Unit() Cents { return Cents(c.unit) }

// Step is the currency's smallest amount as decimal text, the step of a
// number field for a price: "0.01", "1" for yen, "0.001" for dinars.
func (c Currency) Step() string {
	if c.digits == 0 {
		return "1"
	}
	return "0." + strings.Repeat("0", c.digits-1) + "1"
}

// Symbol is how the locale writes the currency: "$", "€", "¥", "KWD".
func (c Currency) Symbol() string { return c.symbol }

// DecimalSeparator is what the locale writes between the major and the
// minor digits: "." in en-US, "," in de-DE.
func (c Currency) DecimalSeparator() string { return c.decimal }

// Format writes amount with all of the currency's minor digits.
func (c Currency) Format(amount Cents) string { return c.format(c.full, amount) }

// FormatWhole writes amount without its minor digits when they are all
// zero ("$50"), and like Format otherwise ("$12.50").
func (c Currency) FormatWhole(amount Cents) string {
	if int64(amount)%c.unit == 0 {
		return c.format(c.whole, amount)
	}
	return c.format(c.full, amount)
}

func (c Currency) format(w *written, amount Cents) string {
	w.mu.RLock()
	s, ok := w.text[amount]
	w.mu.RUnlock()
	if ok {
		return s
	}
	// The code was checked by NewCurrency, so this cannot fail.
	a, _ := currency.NewAmountFromInt64(int64(amount), c.code)
	s = w.f.Format(a)
	w.mu.Lock()
	if len(w.text) < rememberAmounts {
		w.text[amount] = s
	}
	w.mu.Unlock()
	return s
}

// defaultCurrency is the configuration's default, US dollars written for
// the United States: what a process formats in until SetCurrency is
// called (tests, tools).
var defaultCurrency = func() Currency {
	c, err := NewCurrency("USD", "en-US")
	if err != nil {
		panic(err)
	}
	return c
}()

// shopCurrency is the shop's currency. It is process-wide configuration,
// like the database the process serves: read from the environment at
// start-up (SHOP_CURRENCY, SHOP_LOCALE) and the same in every instance of
// a shop. It is a setting here rather than a parameter because amounts are
// formatted in hundreds of places (pages, e-mails, logs) that have no
// other reason to know it; see decision 0013.
var shopCurrency atomic.Pointer[Currency]

// CurrentCurrency is the shop's currency: the one SetCurrency set, or US
// dollars for en-US before that.
func CurrentCurrency() Currency {
	if c := shopCurrency.Load(); c != nil {
		return *c
	}
	return defaultCurrency
}

// SetCurrency makes c the shop's currency for the whole process: main
// calls it once at start-up, before anything is served. It returns a
// function that puts back the currency it replaced, which tests that
// change it register with t.Cleanup (such tests must not run in parallel
// with others that format money).
func SetCurrency(c Currency) (restore func()) {
	prev := shopCurrency.Swap(&c)
	return func() { shopCurrency.Store(prev) }
}
