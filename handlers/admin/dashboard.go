package admin

import (
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/pages"
)

// dashboardPages serve the dashboard.
type dashboardPages struct {
	*web.Pages
	store shop.DashboardStore
	// orphans are the payments without an order, counted for admins.
	orphans shop.OrphanStore
	// refunds are the refunds to pay back by hand the dashboard reminds
	// of; nil: none.
	refunds RefundsDue
}

const chartDays = 14

func (a *dashboardPages) adminDashboard(c *fiber.Ctx) error {
	now := a.Now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	d, err := a.store.Dashboard(c.UserContext(), day, chartDays)
	if err != nil {
		return err
	}
	p := pages.AdminDashboardPage{Nav: adminNav(c, backoffice.AreaDashboard), D: d, Chart: revenueChart(d.Days)}
	if a.orphans != nil && backoffice.Allowed(staffRole(c), backoffice.AreaMoney) {
		open, err := a.orphans.Orphans(c.UserContext(), shop.OrphanOpen, shop.OrphanRefunding)
		if err != nil {
			return err
		}
		p.Orphans = len(open)
	}
	if a.refunds != nil {
		if p.RefundsDue, err = a.refunds.RefundsByHand(c.UserContext()); err != nil {
			return err
		}
	}
	return web.Render(c, fiber.StatusOK, pages.AdminDashboard(a.Frame(c, "Dashboard · Back office"), p))
}

// revenueChart lays out one bar per day, scaled to the best day.
func revenueChart(days []shop.DayTotal) pages.ChartModel {
	const w, h, top, bottom = 560, 180, 10, 20
	m := pages.ChartModel{Width: w, Height: h, Title: fmt.Sprintf("Revenue, last %d days (UTC)", len(days))}
	var best shop.Cents
	for _, d := range days {
		best = max(best, d.Revenue)
	}
	if len(days) == 0 {
		return m
	}
	slot := w / len(days)
	for i, d := range days {
		bh := 0
		if best > 0 {
			bh = int(int64(h-top-bottom) * int64(d.Revenue) / int64(best))
		}
		bh = max(bh, 1)
		m.Bars = append(m.Bars, pages.ChartBar{
			X: i*slot + 4, W: slot - 8, Y: h - bottom - bh, H: bh, LabelX: i*slot + slot/2,
			Label: d.Day.Format("Jan 2"), Value: fmt.Sprintf("%s from %d orders", d.Revenue, d.Orders),
		})
	}
	return m
}
