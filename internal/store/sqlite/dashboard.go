package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

var _ shop.DashboardStore = (*DB)(nil)

// Dashboard sums today's and the last days' orders and lists what needs
// attention.
func (db *DB) Dashboard(ctx context.Context, dayStart time.Time, days int) (shop.Dashboard, error) {
	var d shop.Dashboard
	if err := db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN status != 'cancelled' THEN total_cents END), 0)
		FROM orders WHERE status != 'pending' AND created_at >= ?`, dayStart.Unix()).Scan(&d.OrdersToday, &d.RevenueToday); err != nil {
		return d, fmt.Errorf("dashboard today: %w", err)
	}
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE status = 'processing'`).Scan(&d.AwaitingShip); err != nil {
		return d, fmt.Errorf("dashboard awaiting: %w", err)
	}
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages WHERE handled_at = 0`).Scan(&d.Unhandled); err != nil {
		return d, fmt.Errorf("dashboard messages: %w", err)
	}
	rows, err := db.Query(ctx, `SELECT `+productColumns+` FROM products p WHERE p.stock <= ? AND p.hidden = 0 ORDER BY p.stock, p.id LIMIT 20`, shop.LowStockLevel)
	if err != nil {
		return d, fmt.Errorf("dashboard low stock: %w", err)
	}
	for rows.Next() {
		p, err := scanProduct(rows)
		if err != nil {
			rows.Close()
			return d, fmt.Errorf("dashboard low stock: %w", err)
		}
		d.LowStock = append(d.LowStock, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, fmt.Errorf("dashboard low stock: %w", err)
	}
	for i := days - 1; i >= 0; i-- {
		from := dayStart.AddDate(0, 0, -i)
		t := shop.DayTotal{Day: from}
		if err := db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN status != 'cancelled' THEN total_cents END), 0)
			FROM orders WHERE status != 'pending' AND created_at >= ? AND created_at < ?`, from.Unix(), from.AddDate(0, 0, 1).Unix()).Scan(&t.Orders, &t.Revenue); err != nil {
			return d, fmt.Errorf("dashboard day: %w", err)
		}
		d.Days = append(d.Days, t)
	}
	return d, nil
}
