package mail

// Kept reports whether m keeps its messages in the shop's database (the
// outbox table): a caller may then write a message in the transaction of
// what caused it, instead of sending it after (see decision 0020).
func Kept(m Mailer) bool {
	_, ok := m.(*Outbox)
	return ok
}
