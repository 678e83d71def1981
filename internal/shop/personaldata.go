package shop

import (
	"context"
	"strings"
	"time"
)

// PersonalData is everything the shop keeps of one person, gathered for
// the file they may take elsewhere (the right to data portability): the
// shopper downloads their own from Account Settings, staff make the same
// for a customer who asks. A guest is known only by an e-mail address, so
// a guest's has no account, wishlist or sign-in methods. Which orders are
// a person's is the customers' rule (CustomerStore): an account's own
// orders and the guest checkouts placed with its address.
type PersonalData struct {
	// Key is the customer's key: the account's id, or the guest's address.
	Key   string
	Email string
	// Account is nil for a guest.
	Account  *User
	Orders   []Order
	Returns  []ReturnRequest
	Wishlist []WishlistItem
	Messages []ContactMessage
}

// PersonalDataStore reads a person's data.
type PersonalDataStore interface {
	// PersonalData returns what the shop keeps of the customer key names
	// (an account's id, or a guest's e-mail in any case), or an
	// ENOTFOUND. A guest key that is an account's address is that account.
	// It only reads.
	PersonalData(ctx context.Context, key string) (*PersonalData, error)
}

// PersonalDataFormat names the file's shape, so a reader can tell a later
// one apart.
const PersonalDataFormat = "nocturne.personal-data.v1"

// personalAmounts tells the file's reader how its amounts are written.
const personalAmounts = "minor units (cents) of each order's currency"

// PersonalFile is the JSON file of a person's data: plain field names,
// money in minor units with its currency, times in UTC (RFC 3339). It
// never holds a secret: whether a password is set, not its hash.
type PersonalFile struct {
	Format     string            `json:"format"`
	ExportedAt time.Time         `json:"exported_at"`
	AmountsIn  string            `json:"amounts_in"`
	Profile    PersonalProfile   `json:"profile"`
	SignIn     *SignInMethods    `json:"sign_in_methods,omitempty"`
	Addresses  []PersonalAddress `json:"addresses"`
	Orders     []PersonalOrder   `json:"orders"`
	Returns    []PersonalReturn  `json:"returns"`
	Wishlist   []PersonalWish    `json:"wishlist"`
	Messages   []PersonalMessage `json:"contact_messages"`
}

// PersonalProfile is who the person is to the shop.
type PersonalProfile struct {
	Email         string     `json:"email"`
	Guest         bool       `json:"guest"`
	Name          string     `json:"name,omitempty"`
	Phone         string     `json:"phone,omitempty"`
	EmailVerified bool       `json:"email_verified"`
	CreatedAt     *time.Time `json:"created_at,omitempty"`
}

// SignInMethods says how an account signs in, never with what.
type SignInMethods struct {
	Password     bool `json:"password"`
	GoogleLinked bool `json:"google_linked"`
}

// PersonalAddress is an address the shop holds: the profile's, or one an
// order was shipped to.
type PersonalAddress struct {
	Use     string `json:"use"` // "profile" or "order NOC-…"
	Name    string `json:"name,omitempty"`
	Street  string `json:"street"`
	City    string `json:"city"`
	State   string `json:"state,omitempty"`
	ZipCode string `json:"postcode"`
	Country string `json:"country"`
	Phone   string `json:"phone,omitempty"`
}

// PersonalOrder is one order with its lines.
type PersonalOrder struct {
	ID             string              `json:"id"`
	PlacedAt       time.Time           `json:"placed_at"`
	Email          string              `json:"email"`
	Status         OrderStatus         `json:"status"`
	PaymentStatus  PaymentState        `json:"payment_status"`
	PaymentMethod  string              `json:"payment_method"`
	Currency       string              `json:"currency"`
	Subtotal       Cents               `json:"subtotal"`
	Discount       Cents               `json:"discount"`
	PromoCode      string              `json:"promo_code,omitempty"`
	Shipping       Cents               `json:"shipping"`
	Tax            Cents               `json:"tax"`
	Total          Cents               `json:"total"`
	Refunded       Cents               `json:"refunded"`
	ShipTo         PersonalAddress     `json:"ship_to"`
	ShippingMethod string              `json:"shipping_method,omitempty"`
	Carrier        string              `json:"carrier,omitempty"`
	TrackingNumber string              `json:"tracking_number,omitempty"`
	Lines          []PersonalOrderLine `json:"lines"`
}

// PersonalOrderLine is what one line of an order sold.
type PersonalOrderLine struct {
	ProductID string `json:"product_id"`
	VariantID string `json:"variant_id,omitempty"`
	Name      string `json:"name"`
	Variation string `json:"variation,omitempty"`
	UnitPrice Cents  `json:"unit_price"`
	Quantity  int    `json:"quantity"`
}

// PersonalReturn is a return request and its items.
type PersonalReturn struct {
	ID          string               `json:"id"`
	OrderID     string               `json:"order_id"`
	State       ReturnState          `json:"state"`
	Reason      string               `json:"reason"`
	Comment     string               `json:"comment,omitempty"`
	ShopMessage string               `json:"shop_message,omitempty"`
	Refunded    Cents                `json:"refunded"`
	CreatedAt   time.Time            `json:"created_at"`
	Items       []PersonalReturnItem `json:"items"`
}

// PersonalReturnItem is one item sent back.
type PersonalReturnItem struct {
	Item     string `json:"item"`
	Quantity int    `json:"quantity"`
}

// PersonalWish is a product on the wishlist.
type PersonalWish struct {
	ProductID string    `json:"product_id"`
	Name      string    `json:"name"`
	AddedAt   time.Time `json:"added_at"`
}

// PersonalMessage is a message sent through the contact form.
type PersonalMessage struct {
	SentAt  time.Time `json:"sent_at"`
	Name    string    `json:"name"`
	Email   string    `json:"email"`
	Subject string    `json:"subject"`
	Message string    `json:"message"`
}

// File is d as the person downloads it, made at now. Every list is
// present, empty rather than null, so a reader need not tell the two
// apart.
func (d *PersonalData) File(now time.Time) PersonalFile {
	f := PersonalFile{Format: PersonalDataFormat, ExportedAt: now.UTC().Truncate(time.Second), AmountsIn: personalAmounts,
		Profile:   PersonalProfile{Email: d.Email, Guest: d.Account == nil},
		Addresses: []PersonalAddress{}, Orders: []PersonalOrder{}, Returns: []PersonalReturn{},
		Wishlist: []PersonalWish{}, Messages: []PersonalMessage{}}
	if u := d.Account; u != nil {
		created := u.CreatedAt.UTC()
		f.Profile.Name, f.Profile.Phone, f.Profile.EmailVerified, f.Profile.CreatedAt = u.DisplayName, u.PhoneNumber, u.EmailVerified, &created
		f.SignIn = &SignInMethods{Password: u.HasPassword, GoogleLinked: u.GoogleSubject != ""}
		if a := (PersonalAddress{Use: "profile", Name: u.DisplayName, Street: u.Address, City: u.City, State: u.State,
			ZipCode: u.ZipCode, Country: u.Country, Phone: u.PhoneNumber}); a.Street != "" || a.City != "" || a.ZipCode != "" {
			f.Addresses = append(f.Addresses, a)
		}
	}
	for _, o := range d.Orders {
		po := personalOrder(o)
		f.Orders = append(f.Orders, po)
		if po.ShipTo.Street != "" {
			f.Addresses = append(f.Addresses, po.ShipTo)
		}
	}
	for _, r := range d.Returns {
		pr := PersonalReturn{ID: r.ID, OrderID: r.OrderID, State: r.State, Reason: r.Reason, Comment: r.Comment,
			ShopMessage: r.StaffMessage, Refunded: r.Refunded, CreatedAt: r.CreatedAt.UTC(), Items: []PersonalReturnItem{}}
		for _, l := range r.Lines {
			pr.Items = append(pr.Items, PersonalReturnItem{Item: l.Label, Quantity: l.Quantity})
		}
		f.Returns = append(f.Returns, pr)
	}
	for _, w := range d.Wishlist {
		f.Wishlist = append(f.Wishlist, PersonalWish{ProductID: w.Product.ID, Name: w.Product.Title, AddedAt: w.AddedAt.UTC()})
	}
	for _, m := range d.Messages {
		f.Messages = append(f.Messages, PersonalMessage{SentAt: m.CreatedAt.UTC(), Name: m.Name, Email: m.Email,
			Subject: m.Subject, Message: m.Message})
	}
	return f
}

// personalOrder is o as the file writes it; its shipping address is
// named by the order it belongs to.
func personalOrder(o Order) PersonalOrder {
	a := o.ShipTo
	po := PersonalOrder{ID: o.ID, PlacedAt: o.CreatedAt.UTC(), Email: o.Email, Status: o.Status, PaymentStatus: o.PaymentStatus,
		PaymentMethod: o.PaymentMethod, Currency: o.Currency, Subtotal: o.Subtotal, Discount: o.Discount, PromoCode: o.PromoCode,
		Shipping: o.Shipping, Tax: o.Tax, Total: o.Total, Refunded: o.Refunded, ShippingMethod: o.ShippingMethod,
		Carrier: o.Carrier, TrackingNumber: o.TrackingNumber, Lines: []PersonalOrderLine{},
		ShipTo: PersonalAddress{Use: "order " + o.ID, Name: a.Name, Street: a.Street, City: a.City, State: a.State,
			ZipCode: a.ZipCode, Country: a.Country, Phone: a.Phone}}
	for _, l := range o.Lines {
		po.Lines = append(po.Lines, PersonalOrderLine{ProductID: l.ProductID, VariantID: l.VariantID, Name: l.Name,
			Variation: l.Variation, UnitPrice: l.Price, Quantity: l.Quantity})
	}
	return po
}

// PersonalFileName is the download's file name: the shop's data of whom,
// on which day. An address is reduced to letters, digits, dots and dashes
// so the name is safe in a header and on any disk.
func PersonalFileName(who string, day time.Time) string {
	var b strings.Builder
	for _, r := range strings.ToLower(who) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return "personal-data-" + b.String() + "-" + day.Format("2006-01-02") + ".json"
}
