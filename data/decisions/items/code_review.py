"""Code review: bugs, vulnerabilities, tests, issue type, commit type, review verdict."""

from ._kit import choice, it, noul, score

DOMAIN = "code_review"
PREFIX = "code"

BUG = noul(
    "Does this change introduce a bug (code that will behave incorrectly for some input)?"
)
VULN = noul(
    "Does this code contain a security vulnerability, such as injection, path traversal, hard-coded secrets, "
    "unsafe deserialisation or missing authorisation?"
)
TESTS = noul("Does this change add or update tests that cover the behaviour it changes?")

ISSUE = choice(
    "What is the main problem with this code?",
    {
        "none": "the code is fine",
        "security": "a vulnerability",
        "correctness": "wrong results or crashes for some inputs",
        "performance": "needlessly slow or wasteful",
        "resource_leak": "files, connections, locks or memory not released",
        "concurrency": "race conditions, deadlocks, unsafe shared state",
        "readability": "works, but is hard to read or maintain",
    },
)
COMMIT = choice(
    "Which conventional-commit type best describes this change?",
    {
        "feat": "a new user-facing feature",
        "fix": "a bug fix",
        "refactor": "restructuring with no change in behaviour",
        "perf": "a performance improvement",
        "docs": "documentation only",
        "test": "tests only",
        "chore": "build, dependencies, tooling or configuration",
    },
)
VERDICT = score(
    "What review verdict does this change deserve?",
    [
        "approve as is",
        "approve with minor comments (naming, style, small nits)",
        "request changes: a real bug or design problem",
        "block: a security hole or a risk of data loss",
    ],
)

LONG_DIFF_BUG = '''\
PR #2207 "Add per-customer rate limits to the public API" — files changed: 3

diff --git a/api/ratelimit.py b/api/ratelimit.py
new file mode 100644
--- /dev/null
+++ b/api/ratelimit.py
@@ -0,0 +1,74 @@
+"""Token-bucket rate limiting, one bucket per API key, stored in Redis."""
+
+from __future__ import annotations
+
+import time
+from dataclasses import dataclass
+
+from redis import Redis
+
+DEFAULT_RATE = 10.0  # tokens per second
+DEFAULT_BURST = 50  # bucket size
+
+_SCRIPT = """
+local key = KEYS[1]
+local rate = tonumber(ARGV[1])
+local burst = tonumber(ARGV[2])
+local now = tonumber(ARGV[3])
+local cost = tonumber(ARGV[4])
+local state = redis.call('HMGET', key, 'tokens', 'ts')
+local tokens = tonumber(state[1]) or burst
+local ts = tonumber(state[2]) or now
+tokens = math.min(burst, tokens + (now - ts) * rate)
+local allowed = tokens >= cost
+if allowed then tokens = tokens - cost end
+redis.call('HSET', key, 'tokens', tokens, 'ts', now)
+redis.call('EXPIRE', key, math.ceil(burst / rate) + 1)
+return {allowed and 1 or 0, tostring(tokens)}
+"""
+
+
+@dataclass(frozen=True)
+class Decision:
+    allowed: bool
+    remaining: float
+    retry_after: float
+
+
+class RateLimiter:
+    def __init__(self, redis: Redis, rate: float = DEFAULT_RATE, burst: int = DEFAULT_BURST):
+        self.redis = redis
+        self.rate = rate
+        self.burst = burst
+        self._script = redis.register_script(_SCRIPT)
+
+    def limits_for(self, customer) -> tuple[float, int]:
+        """Enterprise customers get a custom rate; everyone else gets the default."""
+        if customer.plan == "enterprise" and customer.rate_limit:
+            return customer.rate_limit, customer.rate_limit * 5
+        return self.rate, self.burst
+
+    def check(self, customer, cost: int = 1) -> Decision:
+        rate, burst = self.limits_for(customer)
+        key = f"rl:{customer.api_key_id}"
+        allowed, remaining = self._script(keys=[key], args=[rate, burst, time.time(), cost])
+        remaining = float(remaining)
+        retry_after = 0.0 if allowed else (cost - remaining) * rate
+        return Decision(bool(allowed), remaining, retry_after)
+
+
+def headers(decision: Decision, burst: int) -> dict[str, str]:
+    out = {
+        "X-RateLimit-Limit": str(burst),
+        "X-RateLimit-Remaining": str(int(decision.remaining)),
+    }
+    if not decision.allowed:
+        out["Retry-After"] = str(max(1, round(decision.retry_after)))
+    return out
diff --git a/api/middleware.py b/api/middleware.py
--- a/api/middleware.py
+++ b/api/middleware.py
@@ -12,6 +12,7 @@ from api.auth import authenticate
 from api.errors import error_response
+from api.ratelimit import RateLimiter, headers
 
 
 class ApiMiddleware:
@@ -20,11 +21,24 @@ class ApiMiddleware:
     def __init__(self, app, redis):
         self.app = app
+        self.limiter = RateLimiter(redis)
 
     async def __call__(self, request):
         customer = await authenticate(request)
         if customer is None:
             return error_response(401, "unauthenticated", "Missing or invalid API key.")
-        return await self.app(request)
+        decision = self.limiter.check(customer)
+        _, burst = self.limiter.limits_for(customer)
+        if not decision.allowed:
+            response = error_response(429, "rate_limited", "Too many requests.")
+            response.headers.update(headers(decision, burst))
+            return response
+        response = await self.app(request)
+        response.headers.update(headers(decision, burst))
+        return response
diff --git a/tests/test_ratelimit.py b/tests/test_ratelimit.py
new file mode 100644
--- /dev/null
+++ b/tests/test_ratelimit.py
@@ -0,0 +1,24 @@
+import fakeredis
+
+from api.ratelimit import RateLimiter
+
+
+class Customer:
+    def __init__(self, plan="free", rate_limit=None, api_key_id="k1"):
+        self.plan, self.rate_limit, self.api_key_id = plan, rate_limit, api_key_id
+
+
+def test_allows_burst_then_limits():
+    limiter = RateLimiter(fakeredis.FakeRedis(), rate=1.0, burst=3)
+    c = Customer()
+    results = [limiter.check(c).allowed for _ in range(4)]
+    assert results == [True, True, True, False]
+
+
+def test_enterprise_gets_custom_limit():
+    limiter = RateLimiter(fakeredis.FakeRedis())
+    c = Customer(plan="enterprise", rate_limit=100)
+    assert limiter.limits_for(c) == (100, 500)
'''

LONG_FILE_VULN = '''\
# reports/views.py — excerpt submitted for review (Flask)

import csv
import io
import os
from datetime import date, datetime

from flask import Blueprint, abort, current_app, g, request, send_file
from sqlalchemy import text

from .auth import login_required, role_required
from .db import session

bp = Blueprint("reports", __name__, url_prefix="/reports")

EXPORT_DIR = "/srv/app/exports"
MAX_ROWS = 50_000


def _parse_date(value: str, default: date) -> date:
    if not value:
        return default
    try:
        return datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError:
        abort(400, "dates must be YYYY-MM-DD")


@bp.get("/sales")
@login_required
def sales_summary():
    """Daily sales totals for the current user's store, between two dates."""
    start = _parse_date(request.args.get("start"), date.today().replace(day=1))
    end = _parse_date(request.args.get("end"), date.today())
    rows = session.execute(
        text(
            "SELECT day, SUM(total) AS total, COUNT(*) AS orders "
            "FROM orders WHERE store_id = :store AND day BETWEEN :start AND :end "
            "GROUP BY day ORDER BY day"
        ),
        {"store": g.user.store_id, "start": start, "end": end},
    ).fetchall()
    return {"rows": [dict(r._mapping) for r in rows]}


@bp.get("/top-products")
@login_required
def top_products():
    """Best sellers for the user's store; `limit` defaults to 10 and is capped at 100."""
    try:
        limit = min(int(request.args.get("limit", 10)), 100)
    except ValueError:
        abort(400, "limit must be an integer")
    rows = session.execute(
        text(
            "SELECT p.sku, p.name, SUM(oi.qty) AS units FROM order_items oi "
            "JOIN products p ON p.id = oi.product_id JOIN orders o ON o.id = oi.order_id "
            "WHERE o.store_id = :store GROUP BY p.sku, p.name ORDER BY units DESC LIMIT :limit"
        ),
        {"store": g.user.store_id, "limit": limit},
    ).fetchall()
    return {"rows": [dict(r._mapping) for r in rows]}


@bp.get("/customers/search")
@login_required
@role_required("manager")
def customer_search():
    """Search the store's customers by surname, for the loyalty desk."""
    surname = request.args.get("surname", "").strip()
    if len(surname) < 2:
        abort(400, "surname must be at least 2 characters")
    sql = (
        "SELECT id, first_name, last_name, email, loyalty_points FROM customers "
        f"WHERE store_id = {int(g.user.store_id)} AND last_name ILIKE '{surname}%' "
        "ORDER BY last_name LIMIT 50"
    )
    rows = session.execute(text(sql)).fetchall()
    return {"rows": [dict(r._mapping) for r in rows]}


@bp.post("/export")
@login_required
@role_required("manager")
def export_csv():
    """Write the sales summary to a CSV in the exports folder and return its name."""
    start = _parse_date(request.form.get("start"), date.today().replace(day=1))
    end = _parse_date(request.form.get("end"), date.today())
    rows = session.execute(
        text(
            "SELECT day, SUM(total) AS total FROM orders WHERE store_id = :store "
            "AND day BETWEEN :start AND :end GROUP BY day ORDER BY day LIMIT :max"
        ),
        {"store": g.user.store_id, "start": start, "end": end, "max": MAX_ROWS},
    ).fetchall()
    name = f"sales-{g.user.store_id}-{start:%Y%m%d}-{end:%Y%m%d}.csv"
    with open(os.path.join(EXPORT_DIR, name), "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["day", "total"])
        writer.writerows(rows)
    current_app.logger.info("export %s written by user %s", name, g.user.id)
    return {"file": name}


@bp.get("/export/<int:store_id>/<name>")
@login_required
def download_export(store_id: int, name: str):
    """Download a previously written export for the user's own store."""
    if store_id != g.user.store_id:
        abort(403)
    if not name.startswith(f"sales-{store_id}-") or not name.endswith(".csv") or "/" in name:
        abort(404)
    path = os.path.join(EXPORT_DIR, name)
    if not os.path.exists(path):
        abort(404)
    return send_file(path, mimetype="text/csv", as_attachment=True)
'''

LONG_REFACTOR_OK = '''\
PR #918 "Split OrderService.place() into smaller steps" — author notes: no behaviour change intended; all existing
tests pass unchanged (412 passed).

diff --git a/shop/orders/service.py b/shop/orders/service.py
--- a/shop/orders/service.py
+++ b/shop/orders/service.py
@@ -40,58 +40,74 @@ class OrderService:
     def place(self, cart: Cart, customer: Customer, payment: PaymentMethod) -> Order:
-        if not cart.items:
-            raise EmptyCart()
-        for item in cart.items:
-            stock = self.inventory.available(item.sku)
-            if stock < item.quantity:
-                raise OutOfStock(item.sku, requested=item.quantity, available=stock)
-        subtotal = sum(item.unit_price * item.quantity for item in cart.items)
-        discount = Decimal("0")
-        if cart.coupon:
-            coupon = self.coupons.get(cart.coupon)
-            if coupon is None or coupon.expired(self.clock.today()):
-                raise InvalidCoupon(cart.coupon)
-            discount = coupon.discount_for(subtotal)
-        shipping = self.shipping.quote(cart, customer.address)
-        tax = self.tax.calculate(subtotal - discount + shipping, customer.address)
-        total = subtotal - discount + shipping + tax
-        reservation = self.inventory.reserve(
-            [(item.sku, item.quantity) for item in cart.items], ttl_seconds=900
-        )
-        try:
-            charge = self.payments.charge(payment, total, idempotency_key=cart.id)
-        except PaymentDeclined:
-            self.inventory.release(reservation)
-            raise
-        order = Order.create(
-            customer=customer,
-            items=cart.items,
-            subtotal=subtotal,
-            discount=discount,
-            shipping=shipping,
-            tax=tax,
-            total=total,
-            charge_id=charge.id,
-        )
-        self.repository.save(order)
-        self.inventory.commit(reservation)
-        self.events.publish(OrderPlaced(order.id, customer.id, total))
-        return order
+        self._check_cart(cart)
+        prices = self._price(cart, customer)
+        reservation = self.inventory.reserve(
+            [(item.sku, item.quantity) for item in cart.items], ttl_seconds=900
+        )
+        charge = self._charge_or_release(payment, prices.total, cart.id, reservation)
+        order = Order.create(
+            customer=customer,
+            items=cart.items,
+            subtotal=prices.subtotal,
+            discount=prices.discount,
+            shipping=prices.shipping,
+            tax=prices.tax,
+            total=prices.total,
+            charge_id=charge.id,
+        )
+        self.repository.save(order)
+        self.inventory.commit(reservation)
+        self.events.publish(OrderPlaced(order.id, customer.id, prices.total))
+        return order
+
+    def _check_cart(self, cart: Cart) -> None:
+        if not cart.items:
+            raise EmptyCart()
+        for item in cart.items:
+            stock = self.inventory.available(item.sku)
+            if stock < item.quantity:
+                raise OutOfStock(item.sku, requested=item.quantity, available=stock)
+
+    def _price(self, cart: Cart, customer: Customer) -> Prices:
+        subtotal = sum(item.unit_price * item.quantity for item in cart.items)
+        discount = Decimal("0")
+        if cart.coupon:
+            coupon = self.coupons.get(cart.coupon)
+            if coupon is None or coupon.expired(self.clock.today()):
+                raise InvalidCoupon(cart.coupon)
+            discount = coupon.discount_for(subtotal)
+        shipping = self.shipping.quote(cart, customer.address)
+        tax = self.tax.calculate(subtotal - discount + shipping, customer.address)
+        return Prices(subtotal, discount, shipping, tax, subtotal - discount + shipping + tax)
+
+    def _charge_or_release(self, payment, total, key, reservation) -> Charge:
+        try:
+            return self.payments.charge(payment, total, idempotency_key=key)
+        except PaymentDeclined:
+            self.inventory.release(reservation)
+            raise
diff --git a/shop/orders/types.py b/shop/orders/types.py
--- a/shop/orders/types.py
+++ b/shop/orders/types.py
@@ -1,6 +1,16 @@
 from dataclasses import dataclass
 from decimal import Decimal
 
+
+@dataclass(frozen=True)
+class Prices:
+    subtotal: Decimal
+    discount: Decimal
+    shipping: Decimal
+    tax: Decimal
+    total: Decimal
+
+
 @dataclass(frozen=True)
 class LineItem:
     sku: str
diff --git a/shop/orders/__init__.py b/shop/orders/__init__.py
--- a/shop/orders/__init__.py
+++ b/shop/orders/__init__.py
@@ -1,4 +1,12 @@
-"""Orders."""
+"""Orders: placing, pricing and persisting customer orders.
+
+OrderService.place() is the single entry point for checkout. It runs, in order:
+  1. _check_cart      - empty carts and stock levels
+  2. _price           - subtotal, coupon discount, shipping and tax
+  3. reserve stock    - held for 15 minutes
+  4. _charge_or_release - charge the card; release the reservation if declined
+  5. save, commit the reservation and publish OrderPlaced
+"""
 
 from .service import OrderService
-from .types import LineItem
+from .types import LineItem, Prices
'''

LONG_RESET_PR = '''\
PR #3310 "Password reset by email" — TypeScript / Express. Description: adds "Forgot password?" flow. Tested
manually on staging. Reviewers: @hana, @olu.

diff --git a/src/auth/reset.ts b/src/auth/reset.ts
new file mode 100644
--- /dev/null
+++ b/src/auth/reset.ts
@@ -0,0 +1,92 @@
+import { Router } from "express";
+import bcrypt from "bcrypt";
+import { db } from "../db";
+import { sendMail } from "../mail";
+import { logger } from "../logger";
+import { rateLimit } from "../middleware/rateLimit";
+
+export const resetRouter = Router();
+
+const TOKEN_TTL_MINUTES = 30;
+
+function makeToken(): string {
+  // 8 random base-36 characters, easy to type if the link breaks
+  return Math.random().toString(36).slice(2, 10);
+}
+
+resetRouter.post("/auth/forgot", rateLimit({ perMinute: 5 }), async (req, res) => {
+  const email = String(req.body.email || "").trim().toLowerCase();
+  const user = await db.users.findByEmail(email);
+  if (!user) {
+    // Do not reveal whether the account exists.
+    return res.status(202).json({ ok: true });
+  }
+  const token = makeToken();
+  await db.passwordResets.insert({
+    userId: user.id,
+    token,
+    expiresAt: new Date(Date.now() + TOKEN_TTL_MINUTES * 60_000),
+  });
+  logger.info(`password reset requested for ${email}, token=${token}`);
+  await sendMail({
+    to: email,
+    subject: "Reset your password",
+    text: `Use this link within ${TOKEN_TTL_MINUTES} minutes: https://app.example.com/reset?token=${token}`,
+  });
+  return res.status(202).json({ ok: true });
+});
+
+resetRouter.post("/auth/reset", async (req, res) => {
+  const token = String(req.body.token || "");
+  const password = String(req.body.password || "");
+  if (password.length < 12) {
+    return res.status(400).json({ error: "password_too_short" });
+  }
+  const reset = await db.passwordResets.findByToken(token);
+  if (!reset || reset.expiresAt < new Date()) {
+    return res.status(400).json({ error: "invalid_or_expired_token" });
+  }
+  const hash = await bcrypt.hash(password, 12);
+  await db.users.updatePassword(reset.userId, hash);
+  await db.sessions.revokeAllForUser(reset.userId);
+  logger.info(`password reset completed for user ${reset.userId}`);
+  return res.json({ ok: true });
+});
diff --git a/src/app.ts b/src/app.ts
--- a/src/app.ts
+++ b/src/app.ts
@@ -8,6 +8,7 @@ import { sessionRouter } from "./auth/session";
+import { resetRouter } from "./auth/reset";
@@ -31,6 +32,7 @@ app.use(sessionRouter);
+app.use(resetRouter);
diff --git a/src/db/migrations/0042_password_resets.sql b/src/db/migrations/0042_password_resets.sql
new file mode 100644
--- /dev/null
+++ b/src/db/migrations/0042_password_resets.sql
@@ -0,0 +1,8 @@
+CREATE TABLE password_resets (
+  id BIGSERIAL PRIMARY KEY,
+  user_id BIGINT NOT NULL REFERENCES users(id),
+  token TEXT NOT NULL,
+  expires_at TIMESTAMPTZ NOT NULL,
+  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
+);
+CREATE INDEX password_resets_token ON password_resets(token);
diff --git a/web/src/pages/ForgotPassword.tsx b/web/src/pages/ForgotPassword.tsx
new file mode 100644
--- /dev/null
+++ b/web/src/pages/ForgotPassword.tsx
@@ -0,0 +1,31 @@
+import { useState } from "react";
+
+export function ForgotPassword() {
+  const [email, setEmail] = useState("");
+  const [sent, setSent] = useState(false);
+  async function submit(e: React.FormEvent) {
+    e.preventDefault();
+    await fetch("/auth/forgot", {
+      method: "POST",
+      headers: { "Content-Type": "application/json" },
+      body: JSON.stringify({ email }),
+    });
+    setSent(true);
+  }
+  if (sent) return <p>If an account exists for {email}, we've sent a reset link.</p>;
+  return (
+    <form onSubmit={submit}>
+      <label>
+        Email
+        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
+      </label>
+      <button type="submit">Send reset link</button>
+    </form>
+  );
+}
'''

ITEMS = [
    # ---- introduces a bug? ------------------------------------------------------------------------------
    it(BUG, '''\
        -    for i in range(len(items)):
        +    for i in range(len(items) - 1):
                 total += items[i].price
        ''', True),
    it(BUG, '''\
        -def is_adult(age):
        -    return age > 18
        +def is_adult(age: int) -> bool:
        +    """Adults are 18 or older."""
        +    return age >= 18
        ''', False),
    it(BUG, '''\
         function average(xs) {
        -  return xs.reduce((a, b) => a + b, 0) / xs.length;
        +  if (xs.length === 0) return 0;
        +  return xs.reduce((a, b) => a + b, 0) / xs.length;
         }
        ''', False),
    it(BUG, '''\
         def apply_discount(price, percent):
        -    return price * (1 - percent / 100)
        +    return price * (1 - percent)
        ''', True),
    it(BUG, '''\
        -    if user is not None and user.is_active:
        +    if user.is_active and user is not None:
                 grant_access(user)
        ''', True),
    it(BUG, '''\
        -    names = sorted(names)
        +    names.sort()
             return names[:10]
        ''', True, amb=True),
    it(BUG, '''\
         func lastN(s []int, n int) []int {
        -    return s[len(s)-n:]
        +    if n > len(s) {
        +        n = len(s)
        +    }
        +    return s[len(s)-n:]
         }
        ''', False),
    it(BUG, '''\
        -  const end = new Date(start.getTime() + days * 24 * 60 * 60 * 1000);
        +  const end = new Date(start.getTime() + days * 24 * 60 * 60);
        ''', True),
    it(BUG, '''\
        -    with open(path) as f:
        -        data = json.load(f)
        +    with open(path, encoding="utf-8") as f:
        +        data = json.load(f)
        ''', False),
    it(BUG, '''\
         def add_tag(tag, tags=[]):
        -    return tags + [tag]
        +    tags.append(tag)
        +    return tags
        ''', True),
    it(BUG, '''\
        -    parts = line.split(",")
        +    parts = next(csv.reader([line]))
             name, city = parts[0], parts[1]
        Context: fields may contain quoted commas, e.g. "Smith, J.",London
        ''', False),
    it(BUG, '''\
        -  if (status == 200) {
        +  if (status >= 200 && status < 300) {
             return parse(body);
           }
        Context: the API returns 201 for created resources and 204 (no body) for deletes; parse(body) handles an
        empty body by returning null.
        ''', False, amb=True),
    it(BUG, LONG_DIFF_BUG, True),
    # ---- vulnerability? ----------------------------------------------------------------------------------
    it(VULN, '''\
        @app.get("/files")
        def get_file():
            name = request.args["name"]
            return send_file(os.path.join("/srv/uploads", name))
        ''', True),
    it(VULN, '''\
        cur.execute("SELECT * FROM users WHERE email = %s", (email,))
        user = cur.fetchone()
        ''', False),
    it(VULN, '''\
        AWS_ACCESS_KEY_ID = "AKIAZ7Q3EXAMPLE4KQ2P"
        AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"
        s3 = boto3.client("s3", aws_access_key_id=AWS_ACCESS_KEY_ID, aws_secret_access_key=AWS_SECRET_ACCESS_KEY)
        ''', True),
    it(VULN, '''\
        def load_session(cookie: bytes):
            return pickle.loads(base64.b64decode(cookie))
        ''', True),
    it(VULN, '''\
        const total = items.reduce((sum, i) => sum + i.price * i.qty, 0);
        res.json({ total: Math.round(total * 100) / 100 });
        ''', False),
    it(VULN, '''\
        @router.delete("/invoices/{invoice_id}")
        async def delete_invoice(invoice_id: int, user=Depends(current_user)):
            await db.execute("DELETE FROM invoices WHERE id = :id", {"id": invoice_id})
            return {"deleted": invoice_id}
        ''', True),
    it(VULN, '''\
        password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))
        db.save_user(email=email, password_hash=password_hash)
        ''', False),
    it(VULN, '''\
        subprocess.run(["convert", input_path, "-resize", "800x800", output_path], check=True, timeout=30)
        ''', False, amb=True),
    it(VULN, '''\
        def render_comment(comment):
            return f"<p>{html.escape(comment.body)}</p><span>{html.escape(comment.author)}</span>"
        ''', False),
    it(VULN, '''\
        SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
        DEBUG = os.environ.get("DJANGO_DEBUG", "false").lower() == "true"
        ALLOWED_HOSTS = ["shop.example.com"]
        ''', False),
    it(VULN, LONG_FILE_VULN, True),
    # ---- tests included? -----------------------------------------------------------------------------------
    it(TESTS, '''\
        Files changed: src/pricing.py (+12 -3), tests/test_pricing.py (+28 -0)
        + def test_bulk_discount_applies_at_100_units(): ...
        + def test_bulk_discount_not_applied_at_99_units(): ...
        ''', True),
    it(TESTS, '''\
        Files changed: src/pricing.py (+40 -12), README.md (+3 -1)
        ''', False),
    it(TESTS, '''\
        Files changed: app/models/user.rb (+6 -2), spec/models/user_spec.rb (+0 -14)
        Note: removed the old email-format specs since validation moved to the form object.
        ''', False, amb=True),
    it(TESTS, '''\
        Files changed: lib/date_utils.ts (+9 -4), lib/date_utils.test.ts (+22 -3)
        ''', True),
    it(TESTS, '''\
        Files changed: internal/cache/lru.go (+31 -9), internal/cache/lru_bench_test.go (+18 -0)
        + func BenchmarkGetHit(b *testing.B) { ... }
        ''', False, amb=True),
    it(TESTS, LONG_REFACTOR_OK, False),
    # ---- main issue ----------------------------------------------------------------------------------------
    it(ISSUE, '''\
        def total_price(items):
            return sum(i.price * i.qty for i in items)
        ''', "none"),
    it(ISSUE, '''\
        query = "SELECT * FROM products WHERE name LIKE '%" + term + "%'"
        rows = db.execute(query)
        ''', "security"),
    it(ISSUE, '''\
        def median(xs):
            xs = sorted(xs)
            return xs[len(xs) // 2]
        ''', "correctness"),
    it(ISSUE, '''\
        for user in users:
            orders = db.query("SELECT * FROM orders WHERE user_id = %s", user.id)
            user.order_count = len(orders)
        ''', "performance"),
    it(ISSUE, '''\
        def read_config(path):
            f = open(path)
            return yaml.safe_load(f.read())
        ''', "resource_leak"),
    it(ISSUE, '''\
        counter = 0

        def worker():
            global counter
            for _ in range(100_000):
                counter += 1

        threads = [threading.Thread(target=worker) for _ in range(8)]
        ''', "concurrency"),
    it(ISSUE, '''\
        def f(a, b, c, d, e, g):
            x = a if b else (c if d else (e if g else None))
            return x if x is not None else (a or b or c or d or e or g)
        ''', "readability"),
    it(ISSUE, '''\
        conn = psycopg2.connect(DSN)
        cur = conn.cursor()
        cur.execute("UPDATE accounts SET balance = balance - %s WHERE id = %s", (amount, src))
        cur.execute("UPDATE accounts SET balance = balance + %s WHERE id = %s", (amount, dst))
        ''', "correctness", amb=True),
    it(ISSUE, '''\
        public void transfer(Account from, Account to, long cents) {
            synchronized (from) {
                synchronized (to) {
                    from.debit(cents);
                    to.credit(cents);
                }
            }
        }
        ''', "concurrency"),
    it(ISSUE, '''\
        def contains_duplicates(items):
            for i in range(len(items)):
                for j in range(len(items)):
                    if i != j and items[i] == items[j]:
                        return True
            return False
        ''', "performance"),
    it(ISSUE, '''\
        token = jwt.decode(header.split(" ")[1], options={"verify_signature": False})
        user_id = token["sub"]
        ''', "security"),
    it(ISSUE, '''\
        async function fetchAll(urls) {
          const results = [];
          for (const url of urls) {
            results.push(await fetch(url).then(r => r.json()));
          }
          return results;
        }
        ''', "performance", amb=True),
    it(ISSUE, '''\
        def chunks(xs, size):
            """Split xs into lists of at most `size` items."""
            return [xs[i:i + size] for i in range(0, len(xs), size)]
        ''', "none"),
    # ---- commit type ---------------------------------------------------------------------------------------
    it(COMMIT, "Add CSV export button to the invoices page (new endpoint GET /invoices/export).", "feat"),
    it(COMMIT, "Fix off-by-one in pagination: last page was never shown when total was a multiple of page size.",
       "fix"),
    it(COMMIT, "Extract address validation into its own module; no functional changes.", "refactor"),
    it(COMMIT, "Cache compiled regexes in the log parser; parsing time down from 4.1s to 0.6s on the sample.",
       "perf"),
    it(COMMIT, "Update README with instructions for running the app on Apple Silicon.", "docs"),
    it(COMMIT, "Add regression tests for timezone handling in the scheduler (no source changes).", "test"),
    it(COMMIT, "Bump eslint from 8.56 to 8.57 and update the lockfile.", "chore"),
    it(COMMIT, "Handle null avatar URLs in the profile serializer instead of crashing with a 500.", "fix"),
    it(COMMIT, "Replace the hand-rolled retry loop with tenacity; same backoff settings.", "refactor", amb=True),
    it(COMMIT, "Configure Dependabot to check Python dependencies weekly.", "chore"),
    # ---- verdict -------------------------------------------------------------------------------------------
    it(VERDICT, '''\
        +def slugify(title: str) -> str:
        +    """Lowercase, replace runs of non-alphanumerics with '-', strip leading/trailing dashes."""
        +    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        + (with tests for empty titles, unicode and repeated spaces)
        ''', 0),
    it(VERDICT, '''\
        +def calc(d):
        +    # calculates the thing
        +    r = 0
        +    for k in d: r += d[k]
        +    return r
        ''', 1),
    it(VERDICT, '''\
        -    if retries < MAX_RETRIES:
        +    if retries <= MAX_RETRIES:
                 schedule_retry(job)
        Note: MAX_RETRIES is documented as "maximum number of attempts including the first".
        ''', 2),
    it(VERDICT, '''\
        +@app.route("/admin/run", methods=["POST"])
        +def admin_run():
        +    os.system(request.form["cmd"])
        +    return "ok"
        ''', 3),
    it(VERDICT, '''\
        -DELETE FROM sessions WHERE expires_at < NOW();
        +DELETE FROM sessions;
        Migration runs automatically on deploy to production.
        ''', 3),
    it(VERDICT, '''\
        -    const TIMEOUT_MS = 5000;
        +    const TIMEOUT_MS = 5_000; // 5 seconds
        ''', 0),
    it(VERDICT, '''\
        +    except Exception:
        +        pass
        Wrapped the whole payment webhook handler in try/except so it never returns 500 to the provider.
        ''', 2),
    it(VERDICT, '''\
        +    user_list = get_users()
        +    userList2 = [u for u in user_list if u.active]
        +    return userList2
        ''', 1, amb=True),
    it(VERDICT, '''\
        +  // TODO: remove before release
        +  if (req.query.debug === "1") { req.user = { id: 1, role: "admin" }; }
        ''', 3),
    it(VERDICT, '''\
        +    cache_ttl = 3600  # 1 hour; prices can change more often than this
        Adds caching of product prices to the checkout page.
        ''', 2, amb=True),
    it(VERDICT, LONG_RESET_PR, 3),
    it(VERDICT, '''\
        -def get_user(id):
        +def get_user(user_id: int) -> User | None:
        +    """Return the user with this id, or None if there is none."""
        -    return db.query(User).get(id)
        +    return db.query(User).get(user_id)
        ''', 0),
    it(VERDICT, '''\
        +    results = []
        +    for row in rows:
        +        results.append(transform(row))
        +    return results
        Reviewer suggestion: could be a list comprehension.
        ''', 1),
    it(VERDICT, '''\
        -    logger.info("order placed")
        +    logger.info("order placed", extra={"order_id": order.id, "total": str(order.total)})
        ''', 0),
    it(VERDICT, '''\
        +def is_weekend(d):
        +    return d.weekday() == 5 or d.weekday() == 6 or False
        ''', 1),
    it(VERDICT, '''\
        +    # store the user's card so they don't have to re-enter it
        +    db.users.update(user.id, card_number=form.card_number, cvv=form.cvv)
        ''', 3),
    it(VERDICT, '''\
        +    for attempt in range(3):
        +        resp = requests.get(url, timeout=10)
        +        if resp.ok:
        +            break
        +    return resp.json()
        Note: if all three attempts fail, the last error body is parsed as if it were data.
        ''', 2),
    # ---- medium-length code ----------------------------------------------------------------------------------
    it(ISSUE, '''\
        def export_invoices(customer_ids, out_dir):
            """Write one CSV per customer with all their invoices."""
            conn = psycopg2.connect(DSN)
            for cid in customer_ids:
                cur = conn.cursor()
                cur.execute("SELECT number, issued_on, total FROM invoices WHERE customer_id = %s", (cid,))
                f = open(os.path.join(out_dir, f"{cid}.csv"), "w", newline="")
                writer = csv.writer(f)
                writer.writerow(["number", "issued_on", "total"])
                writer.writerows(cur.fetchall())
            return len(customer_ids)
        # Called nightly with ~40,000 customer ids; the job has started failing with
        # "OSError: [Errno 24] Too many open files".
        ''', "resource_leak"),
    it(TESTS, '''\
        PR #1540 "Round VAT per line instead of per invoice"
        Files changed:
          billing/vat.py            +18 -7
          billing/invoice.py        +4  -2
          tests/test_vat.py         +41 -3
        New/changed tests:
          + test_vat_rounded_per_line_half_up
          + test_vat_per_line_matches_hmrc_example_3
          ~ test_invoice_total_includes_vat (expected total updated from 120.01 to 120.00)
        Description: HMRC allows rounding per line or per invoice; our accountants asked for per-line rounding to
        match their software. Behaviour change: invoices with many small lines may differ by a penny or two.
        ''', True),
]
