"""Phishing and scam detection in email and SMS."""

from ._kit import choice, it, noul, score

DOMAIN = "phishing"
PREFIX = "phish"

PHISH = noul(
    "Is this message a phishing or scam attempt?",
    true="It tries to trick the recipient into giving credentials, money, data or access, or into running malware.",
    false="It is a genuine message, or ordinary marketing, with no attempt to deceive.",
)
ASKS = noul(
    "Does the message ask the recipient to hand over a password, a verification code, payment, gift cards or "
    "personal identity data?"
)
SENDER = noul(
    "Does the sending address actually belong to the organisation the message claims to come from?"
)

KIND = choice(
    "What kind of message is this?",
    {
        "legitimate": "a genuine transactional or personal message",
        "marketing": "genuine promotional email from a real company",
        "credential_phishing": "tries to get a login, password or one-time code, usually via a fake sign-in page",
        "payment_fraud": "impersonates a colleague, boss or supplier to redirect a payment or buy gift cards",
        "malware": "wants the recipient to open an attachment or install something",
        "advance_fee": "promises a prize, inheritance, job or refund in exchange for an upfront fee or details",
        "tech_support_scam": "claims the device is infected or an account is compromised and asks the reader to call a number",
    },
)
TACTIC = choice(
    "Which pressure tactic does the message lean on most?",
    {
        "none": "no pressure; informational",
        "urgency": "a tight deadline or countdown",
        "fear": "threat of suspension, fines, legal action or loss",
        "authority": "an order from a boss, official or institution",
        "reward": "a prize, refund, bonus or deal",
    },
)
RISK = score(
    "How risky is it for the recipient to act on this message?",
    [
        "safe: clearly legitimate",
        "low: probably fine, small oddities",
        "suspicious: verify through another channel before doing anything",
        "dangerous: almost certainly malicious",
    ],
)

LONG_BEC_THREAD = """\
From: Martin Kessler <m.kessler@kessler-feinmechanik.de>
To: Accounts Payable <ap@northbridge-instruments.co.uk>
Cc: Sophie Lang <s.lang@kessler-feinmechanik.de>
Date: Tue, 12 Nov 2024 09:14:22 +0100
Subject: RE: Invoice KF-2024-0871 / PO 45-11902 - updated remittance details

Dear Accounts team,

Thank you for confirming receipt of the invoice below. Please note that due to our annual audit our bank
account at Commerzbank is temporarily frozen for incoming payments. Kindly remit the outstanding amount of
EUR 48,720.00 for invoice KF-2024-0871 to our alternative account:

  Account name: Kessler Feinmechanik GmbH
  Bank: Baltic Commerce Bank, Riga
  IBAN: LV61 BCBA 0000 4412 8890 1
  SWIFT: BCBALV22

As the payment is already 14 days overdue we would appreciate settlement by tomorrow to avoid a hold on your
next shipment of gauge blocks. Please send the remittance advice directly to me, as Sophie is out of office
this week. There is no need to call, our phone lines are being changed.

Mit freundlichen Grüßen / Kind regards
Martin Kessler
Head of Finance
Kessler Feinmechanik GmbH

-----Original Message-----
From: Accounts Payable <ap@northbridge-instruments.co.uk>
Sent: Monday, 11 November 2024 16:02
To: Sophie Lang <s.lang@kessler-feinmechanik.de>
Subject: RE: Invoice KF-2024-0871 / PO 45-11902

Hi Sophie,

Thanks, we have the invoice now and it's matched to PO 45-11902. It's scheduled in our payment run on the 20th
as usual (net 30 from delivery). Let me know if anything changes.

Best wishes,
Gemma Hart
Accounts Payable, Northbridge Instruments Ltd

-----Original Message-----
From: Sophie Lang <s.lang@kessler-feinmechanik.de>
Sent: Monday, 11 November 2024 10:47
To: Accounts Payable <ap@northbridge-instruments.co.uk>
Subject: Invoice KF-2024-0871 / PO 45-11902

Dear Gemma,

Please find attached our invoice KF-2024-0871 for the delivery of 40 sets of grade 1 gauge blocks and 12
calibration certificates, shipped on 21 October under your purchase order 45-11902. Payment terms as agreed:
30 days net, to our usual account at Commerzbank (details on the invoice).

If you need the individual calibration certificates as separate PDFs for your quality system, let me know and
I will send them over.

Kind regards,
Sophie Lang
Sales Administration
Kessler Feinmechanik GmbH · Industriestraße 14 · 73479 Ellwangen · Germany
Tel. +49 7961 555 210

-----Original Message-----
From: Gemma Hart
Sent: Friday, 18 October 2024 08:30
To: Sophie Lang
Subject: PO 45-11902 - delivery date

Hi Sophie, could you confirm the shipping date for PO 45-11902? Our lab would like the gauge blocks before
the end of the month if at all possible. Thanks, Gemma

-----Original Message-----
From: Sophie Lang
Sent: Friday, 18 October 2024 11:12
To: Gemma Hart
Subject: RE: PO 45-11902 - delivery date

Hi Gemma, they go out on the 21st by DHL Freight, so you should have them by the 25th. I'll send the tracking
number when I have it. Have a nice weekend! Sophie

-----Original Message-----
From: Gemma Hart
Sent: Thursday, 26 September 2024 14:55
To: Sophie Lang
Subject: New supplier set-up

Hi Sophie, thanks for the supplier form and the signed bank confirmation letter on Commerzbank letterhead.
You're now set up on our system as supplier 20417 with payment to the Commerzbank account ending 4410. For any
future change of bank details we need the request on letterhead and we will always call your office on the
number we hold (+49 7961 555 210) to confirm before changing anything. Best, Gemma

[Message header detail for the top message, from the mail gateway]
Return-Path: <m.kessler@kessler-feinmechanik.de.invoices-portal.com>
Received-SPF: fail (domain of kessler-feinmechanik.de.invoices-portal.com does not designate 185.220.101.45)
Authentication-Results: dkim=none; dmarc=fail (p=none) header.from=kessler-feinmechanik.de
Reply-To: <martin.kessler.finance@outlook.de>
X-Originating-IP: 185.220.101.45
"""

LONG_NEWSLETTER = """\
From: Fernwood Allotment Society <newsletter@fernwoodallotments.org.uk>
To: members@lists.fernwoodallotments.org.uk
Subject: Fernwood Allotment News — November 2024
List-Unsubscribe: <https://fernwoodallotments.org.uk/newsletter/unsubscribe>

Hello growers,

Welcome to the November newsletter. The clocks have gone back, the last of the squash is in, and the compost
bays are finally full. Here is what's happening on site over the next few weeks.

1. AGM — Saturday 30 November, 10:30, Fernwood Community Hall
Our Annual General Meeting is at the hall on Beech Road (not on site, as the hut isn't big enough). We'll
review the year's accounts, elect the committee and discuss the proposal to install a second water tap on the
east side. Tea and Mrs Okonjo's famous parkin will be served. If you'd like to stand for the committee, please
tell Helen (Secretary) by 23 November. Proxy forms are on the noticeboard in the hut.

2. Rents for 2025
Plot rents for 2025 are unchanged: £42 for a full plot, £24 for a half plot, £12 for a raised bed, with the
usual 50% concession for over-65s and those receiving benefits. Invoices will be handed out at the AGM and
posted in plot letterboxes the following week. You can pay in cash at the Saturday shop, by cheque payable to
"Fernwood Allotment Society", or by bank transfer using the details printed on your invoice. The committee will
never ask for payment by email link, text message or gift card — if you ever receive something like that in our
name, please tell us.

3. Saturday shop winter hours
From 2 November the shop opens 10:00–12:00 on Saturdays only. We have garlic (Solent Wight and Elephant),
overwintering onion sets, broad bean seed (Aquadulce Claudia), horticultural fleece and the last bags of
chicken manure pellets. Prices are on the board.

4. Bonfire reminder
Bonfires are allowed only between 1 November and 31 March, after 4pm, and only for dry, diseased material that
can't be composted. Please never leave a fire unattended and check for hedgehogs before lighting any pile that
has been standing for more than a day.

5. Water
The troughs will be drained on 15 November to stop the pipes freezing. If you need water for winter sowings,
the butt behind the hut will stay connected. Please close the lid after use — we lost a frog in there last
year.

6. Plot inspections
The committee walked the site in October. Most plots look wonderful. We've left friendly notes for a handful
that are getting overgrown; if you got one, please don't worry, just have a chat with any committee member
about a plan for the winter. We know life gets busy.

7. Waiting list
We have 31 people on the waiting list. If you're thinking of giving up your plot, please let Helen know early
so we can offer it to the next person before the spring rush.

8. Seed swap — Sunday 12 January
Bring your saved seeds (labelled, please!) to the hut between 11:00 and 13:00. Last year we had over 60
varieties of bean alone. Hot soup provided by the Davies family on plot 14.

9. Thanks
A big thank you to Raj and Colin for rebuilding the compost bays, to the Year 4 class from Fernwood Primary for
planting the wildflower strip, and to everyone who donated produce to the food bank this summer — over 300 kg
in total.

10. Tool shed
The new combination for the shared tool shed will be given out at the AGM and at the Saturday shop — we don't
put it in emails. Please return the rotavator clean, and log it in the book when you borrow it. The long-handled
loppers have gone missing again; if you have them, no questions asked, just pop them back.

11. Lost property
Found on the path by plot 22: one child's wellington boot (green, frog face), a pair of reading glasses in a
brown case, and a thermos with "DAD" written on it in marker. All are in the hut on the shelf by the kettle.

That's all for this month. See you at the AGM!

Helen Marsh
Honorary Secretary, Fernwood Allotment Society
fernwoodallotments.org.uk · registered with the National Allotment Society

You are receiving this because you are a plot holder at Fernwood Allotments. To stop receiving the newsletter,
use the unsubscribe link in the header or reply with "unsubscribe".
"""

LONG_HEADERS_DELIVERY = """\
Delivered-To: nadia.farouk@gmail.com
Received: by 2002:a05:6a10:8d0c:b0:5a1:2f3b:9e0 with SMTP id ab12csp441277pxb;
        Wed, 6 Mar 2024 07:58:41 -0800 (PST)
X-Received: by 2002:a17:906:3b4a:b0:a44:2f6c:11d0 with SMTP id h10-20020a1709063b4a00b00a442f6c11d0mr9983120ejf.32.1709740721552;
        Wed, 06 Mar 2024 07:58:41 -0800 (PST)
Return-Path: <bounce-42178@mailer.dpd-tracking-parcel.info>
Received: from mailer.dpd-tracking-parcel.info (vps-3391.hostkey-fast.ru. [91.215.85.17])
        by mx.google.com with ESMTPS id k9-20020a05640212c900b00565e14b4d1bsi3349161edx.455.2024.03.06.07.58.41
        for <nadia.farouk@gmail.com>
        (version=TLS1_3 cipher=TLS_AES_256_GCM_SHA384 bits=256/256);
        Wed, 06 Mar 2024 07:58:41 -0800 (PST)
Received-SPF: pass (google.com: domain of bounce-42178@mailer.dpd-tracking-parcel.info designates 91.215.85.17 as permitted sender) client-ip=91.215.85.17;
Authentication-Results: mx.google.com;
       dkim=pass header.i=@dpd-tracking-parcel.info header.s=mail header.b=Qx3mTf9a;
       spf=pass (google.com: domain of bounce-42178@mailer.dpd-tracking-parcel.info designates 91.215.85.17 as permitted sender) smtp.mailfrom=bounce-42178@mailer.dpd-tracking-parcel.info;
       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=dpd-tracking-parcel.info
DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=dpd-tracking-parcel.info; s=mail;
        t=1709740720; bh=2mQ7f4c0uQ1dZb3Yk9qz8sQe1YwK2a0X0w3hQm5p0lE=;
        h=From:To:Subject:Date:Message-ID:MIME-Version:Content-Type;
        b=Qx3mTf9aL0pC7nqzK3c1R8uV2wHf6yJ0aB4dE7gH1iK2lM5nO8pQ3rS6tU9vW0xY
         Z1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5cD6eF7gH8iJ9kL0mN1oP2
Message-ID: <20240306155840.8c1f.42178@mailer.dpd-tracking-parcel.info>
Date: Wed, 06 Mar 2024 15:58:40 +0000
From: "DPD UK" <notifications@dpd-tracking-parcel.info>
To: nadia.farouk@gmail.com
Subject: =?UTF-8?B?WW91ciBwYXJjZWwgY291bGQgbm90IGJlIGRlbGl2ZXJlZCDwn5OmIA==?=
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="b1_8c1f42178"
X-Mailer: PHPMailer 6.8.1 (https://github.com/PHPMailer/PHPMailer)

--b1_8c1f42178
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: 8bit

DPD

Your parcel could not be delivered

Dear customer,

We attempted to deliver your parcel (tracking number 15501234567890) today at 11:42 but nobody was
available to receive it, and the customs and handling fee of £1.99 has not been paid.

To arrange a new delivery slot, please confirm your address and pay the outstanding fee within 24 hours.
After this time the parcel will be returned to the sender and a return charge may apply.

Reschedule delivery: https://dpd-uk-redelivery.help/track?id=15501234567890&ref=nf

You will need:
 - your full name and delivery address
 - date of birth (for age-restricted items)
 - a debit or credit card for the £1.99 fee

Thank you for choosing DPD.

DPD UK Customer Services
Roebuck Lane, Smethwick, West Midlands, B66 1BY

This is an automatically generated email, please do not reply.

--b1_8c1f42178
Content-Type: text/html; charset=UTF-8
Content-Transfer-Encoding: 8bit

<html><body style="font-family:Arial">
<div style="background:#dc0032;padding:12px"><img src="https://dpd-uk-redelivery.help/img/logo.png" alt="DPD"></div>
<h2>Your parcel could not be delivered</h2>
<p>Dear customer,</p>
<p>We attempted to deliver your parcel (tracking number <b>15501234567890</b>) today at 11:42 but nobody was
available to receive it, and the customs and handling fee of <b>&pound;1.99</b> has not been paid.</p>
<p><a href="https://dpd-uk-redelivery.help/track?id=15501234567890&amp;ref=nf" style="background:#dc0032;color:#fff;padding:10px 18px;text-decoration:none">Reschedule delivery</a></p>
<p style="font-size:11px;color:#777">DPD UK Customer Services, Roebuck Lane, Smethwick, West Midlands, B66 1BY</p>
</body></html>

--b1_8c1f42178--
"""

ITEMS = [
    # ---- phishing? ---------------------------------------------------------------------------------------
    it(PHISH, """
        From: "Microsoft 365" <no-reply@microsoft-365-secure-login.com>
        Subject: Action required: your mailbox is almost full

        Your mailbox has reached 98% of its storage limit. Incoming messages will be rejected in 12 hours.
        To increase your quota free of charge, sign in below and confirm your account.

        [ Upgrade storage now ] -> https://microsoft-365-secure-login.com/owa/auth?user=you
        """, True),
    it(PHISH, """
        From: GitHub <noreply@github.com>
        Subject: [GitHub] A new SSH key was added to your account

        Hey rdelacroix!

        A new public key was added to your account.
        Key fingerprint: SHA256:3b0Yc1nU9h2qLw4kX7mP0dRsTf8vEzAa1BcDeFgHiJk
        Title: work-laptop-2024

        If you believe this key was added in error, you can remove the key and disable access at:
        https://github.com/settings/keys
        """, False),
    it(PHISH, """
        Royal Mail: Your package has a £2.99 unpaid shipping fee. Pay now to avoid return to sender:
        royalmail-reschedule.co/gb
        """, True),
    it(PHISH, """
        From: Dr. Amelia Ross <a.ross@westbrookdental.co.uk>
        Subject: Appointment reminder — Thursday 14 March, 2:40pm

        Hi Jonah, this is a reminder of your check-up with Dr Ross on Thursday at 2:40pm. If you need to
        reschedule, please call reception on 01632 960 214. Please arrive five minutes early. Westbrook Dental.
        """, False),
    it(PHISH, {
        "from": "Payroll Department <payroll@hr-employee-portal.net>",
        "to": "all-staff@greenline-foods.com",
        "subject": "Your 2024 salary adjustment letter",
        "body": "Dear employee,\n\nFollowing the annual review, your salary adjustment letter is ready. Please "
                "review and sign before Friday so the change is applied to March payroll.\n\nView letter: "
                "https://hr-employee-portal.net/docs/sign?id=88123\n\nYou will be asked to log in with your company "
                "email and password.\n\nHR Team",
        "auth": {"spf": "pass", "dkim": "pass", "dmarc": "none"},
    }, True),
    it(PHISH, """
        From: Deliveroo <noreply@t.deliveroo.co.uk>
        Subject: Your order from Dishoom is on its way

        Sami is on the way with your order. Estimated arrival 19:42. Track your rider in the app.
        Order total £31.40, paid with Apple Pay.
        """, False),
    it(PHISH, """
        Hey, it's me, I lost my phone and this is my new number. Can you do me a favour and send £200 to a
        friend of mine? I'll pay you back tomorrow, my banking app isn't working on the new phone. Mum x
        """, True),
    it(PHISH, """
        From: IT Service Desk <servicedesk@kestrelpartners.com>
        To: all-staff@kestrelpartners.com
        Subject: Planned maintenance: VPN unavailable Saturday 02:00–04:00

        The VPN will be unavailable this Saturday between 02:00 and 04:00 while we upgrade the firewall. No action
        is needed. If you have problems connecting after 04:00 please raise a ticket in the usual way.
        """, False),
    it(PHISH, """
        From: DocuSign <dse@docusign.net>
        Subject: Completed: Lease renewal — 42 Harrow Rd — please DocuSign

        All parties have completed the envelope "Lease renewal — 42 Harrow Rd". Sender: Parkside Lettings.
        VIEW COMPLETED DOCUMENT (link goes to docusign.net)
        This message was sent to you by Parkside Lettings, who is using the DocuSign Electronic Signature Service.
        """, False, amb=True),
    it(PHISH, """
        From: "Coinbase Support" <support@coinbase.com>
        Reply-To: coinbase.recovery.desk@gmail.com
        Subject: Unusual withdrawal attempt blocked

        We blocked a withdrawal of 0.84 BTC from your account. If this wasn't you, reply to this email with your
        recovery phrase so our security team can lock your wallet.
        """, True),
    it(PHISH, LONG_NEWSLETTER, False),
    it(PHISH, LONG_HEADERS_DELIVERY, True),
    # ---- asks for sensitive things? -----------------------------------------------------------------------
    it(ASKS, """
        Hi, this is Carl from the bank's fraud team. We've stopped a suspicious payment. To verify it's you, I'm
        going to send you a code by text — please read it back to me.
        """, True),
    it(ASKS, """
        From: Strava <no-reply@strava.com>
        Subject: You've got new kudos!

        Megan and 4 others gave you kudos on "Sunday long run — 21.1 km".
        """, False),
    it(ASKS, """
        Hi Priya, are you at your desk? I'm stuck in a board meeting and need you to pick up six £100 Apple gift
        cards for a client thank-you. Scratch the backs and send me photos of the codes. I'll reimburse you
        today. — David (sent from my iPhone)
        """, True),
    it(ASKS, """
        From: Oxford University Press <orders@oup.com>
        Subject: Your order has shipped

        Your order #OUP-7712094 (1 item: "A Very Short Introduction to Topology") has been dispatched with Royal
        Mail Tracked 48. You can track it from your account page.
        """, False),
    it(ASKS, """
        HMRC: You are eligible for a tax refund of £412.60. To receive it, complete the form with your bank card
        details at hmrc-refund-claim.uk/form within 48 hours.
        """, True),
    it(ASKS, """
        From: Lena Park <lena.park@brightsidehr.com>
        Subject: Offer letter — next steps

        Hi Omar, congratulations again! To set you up on payroll before your start date, please complete the
        new-starter form in our HR system (Workday invite to follow) with your bank details and national
        insurance number. Let me know if you have any questions.
        """, True, amb=True),
    it(ASKS, """
        From: Your Apple ID <no_reply@email.apple.com>
        Subject: Your receipt from Apple

        Apple ID: jess.tran@icloud.com
        iCloud+ with 200 GB Storage — Monthly — £2.99
        Billed to Visa •••• 4421. If you have questions about your bill, visit support.apple.com.
        """, False),
    it(ASKS, """
        Team — reminder that timesheets for October are due by 5pm Friday. Please submit through the usual portal,
        no need to email them. Thanks, Ruth (Ops)
        """, False),
    # ---- sender belongs to claimed org? ---------------------------------------------------------------------
    it(SENDER, """
        From: PayPal <service@paypal.co.uk>
        Subject: You've sent a payment of £18.50 to Greenleaf Books
        """, True),
    it(SENDER, """
        From: "Amazon Security" <account-update@amazon-verify-team.com>
        Subject: Your account has been locked
        """, False),
    it(SENDER, """
        From: "Netflix" <info@mailer.netflix.com>
        Subject: New sign-in to your account from a TV in Lisbon
        """, True),
    it(SENDER, """
        From: "Wells Fargo Online" <alerts@wellsfargo-alerts.support>
        Subject: Card ending 7781 — transaction declined
        """, False),
    it(SENDER, """
        From: "Chase" <no.reply.alerts@chase.com>
        Subject: Your statement is ready
        """, True),
    it(SENDER, """
        From: "LinkedIn" <messages-noreply@linkedin.com.mx-notify.co>
        Subject: You appeared in 9 searches this week
        """, False),
    it(SENDER, """
        From: "Barclays" <noreply@email.barclays.co.uk>
        Subject: Important changes to your account terms
        """, True, amb=True),
    # ---- kind ---------------------------------------------------------------------------------------------
    it(KIND, """
        From: Spotify <no-reply@spotify.com>
        Subject: Your Premium receipt

        Thanks for being Premium. You were charged £11.99 on 2 April for Spotify Premium Individual. Next billing
        date 2 May.
        """, "legitimate"),
    it(KIND, """
        From: "Patagonia" <patagonia@email.patagonia.com>
        Subject: Worn Wear spring trade-in: get credit for your old jackets

        Bring your used Patagonia gear to any store this month and we'll give you trade-in credit toward used
        or new gear. Find your nearest store.
        Unsubscribe | Privacy
        """, "marketing"),
    it(KIND, """
        From: "SharePoint Online" <sharepoint@notify-o365docs.com>
        Subject: Jenny Cho shared "Q3 Bonus Allocations.xlsx" with you

        Jenny Cho has shared a file with you. Open to view — you will be asked to sign in with your work
        account to verify access.
        https://notify-o365docs.com/sp/view?f=Q3_Bonus_Allocations
        """, "credential_phishing"),
    it(KIND, """
        From: "Richard Fenn (CEO)" <richard.fenn.ceo@gmail.com>
        To: finance@tallowandwick.com
        Subject: Confidential — urgent wire

        Sarah, I'm closing a confidential acquisition and need a wire of $86,400 sent to the vendor's escrow
        today. I can't talk, in meetings all afternoon. Details below. Don't discuss with anyone until it's
        announced.
        """, "payment_fraud"),
    it(KIND, """
        From: "FedEx Billing" <invoices@fedex-billing-center.com>
        Subject: Unpaid invoice #8830212

        Attached is your outstanding invoice. Please open the attached file and enable editing to view the
        document correctly.
        Attachment: Invoice_8830212.docm (84 KB)
        """, "malware"),
    it(KIND, """
        CONGRATULATIONS!!! Your email was selected in the 2024 Global Lottery Draw. You have won $1,500,000.
        To release your winnings, send your full name, address and a processing fee of $250 via Western Union to
        our claims agent, Mr. Peter Okafor.
        """, "advance_fee"),
    it(KIND, """
        *** WINDOWS DEFENDER ALERT *** Your PC is infected with 5 viruses (Trojan.Spyware). Your banking details
        may be stolen. Do not shut down your computer. Call Microsoft Support immediately: +1 (888) 555-0199
        """, "tech_support_scam"),
    it(KIND, """
        From: "Anna Becker" <anna.becker@lindqvist-supplies.com>
        Subject: Change of bank details

        Dear customer, please be informed that we have changed our bank. All future payments, including the
        open invoices 2231 and 2235, should be made to the new account below. Please update your records.
        """, "payment_fraud", amb=True),
    it(KIND, """
        From: Google <no-reply@accounts.google.com>
        Subject: Security alert

        A new sign-in on Mac. mike.okoro@gmail.com. We noticed a new sign-in to your Google Account on a Mac
        device. If this was you, you don't need to do anything. If not, we'll help you secure your account.
        Check activity (links to myaccount.google.com)
        """, "legitimate"),
    it(KIND, """
        From: "Recruitment Team" <hr@global-remote-jobs.work>
        Subject: Job offer: remote data entry, $45/hour

        You have been selected for a remote data entry position. No interview needed. To receive your work
        laptop and start, pay the $120 equipment registration fee using the link below.
        """, "advance_fee"),
    it(KIND, """
        From: Eventbrite <noreply@order.eventbrite.com>
        Subject: Your tickets for "Brighton Jazz Weekend — Saturday"

        Order #7729104422. 2 x General Admission. Your tickets are attached as a PDF and in the Eventbrite app.
        """, "legitimate"),
    it(KIND, """
        From: "Dropbox" <no-reply@dropbox-filetransfer.info>
        Subject: Marcus sent you "Signed_Contract_Final.zip"

        You have a new file waiting. The file contains an installer for our secure viewer; run
        SecureView_Setup.exe inside the zip to open the contract.
        """, "malware"),
    it(KIND, """
        From: "Norton Subscription" <billing@nortonlifelock-renewal.com>
        Subject: Your Norton 360 subscription has been renewed for $399.99

        Thank you for your renewal. Your card has been charged $399.99. If you did not authorise this renewal,
        call our cancellation desk within 24 hours at +1 (844) 555-0137 to receive a full refund.
        """, "tech_support_scam", amb=True),
    it(KIND, """
        From: Ikea Family <ikeafamily@news.ikea.co.uk>
        Subject: Members' week: 15% off all outdoor furniture

        Log in to your IKEA Family account at ikea.com to see your member offers. Offer valid until Sunday.
        """, "marketing"),
    it(KIND, LONG_BEC_THREAD, "payment_fraud"),
    it(KIND, """
        From: "Evans Cycles" <orders@evanscycles.com>
        Subject: Your click & collect order is ready

        Order EC-4410921 (1 x Kryptonite Evolution lock) is ready to collect from Evans Cycles Leeds. Bring your
        order number and a photo ID. We'll hold it for 7 days.
        """, "legitimate"),
    # ---- tactic --------------------------------------------------------------------------------------------
    it(TACTIC, """
        Your Netflix payment failed. Update your billing information within 24 hours or your membership will be
        cancelled: netflix-billing-help.com
        """, "urgency", amb=True),
    it(TACTIC, """
        FINAL NOTICE: The IRS has filed a lawsuit against you for tax evasion. A warrant will be issued for your
        arrest unless you call 202-555-0144 to settle the amount owed.
        """, "fear"),
    it(TACTIC, """
        From: Office of the Director
        This is a direct instruction from the Managing Director. Process the attached supplier payment before
        end of day. Do not query this with the finance controller.
        """, "authority"),
    it(TACTIC, """
        You've been chosen for an exclusive Costco loyalty reward! Complete our 30-second survey to claim your
        free Dyson Airwrap.
        """, "reward"),
    it(TACTIC, """
        From: Thames Water <noreply@thameswater.co.uk>
        Subject: Your new bill is ready

        Your bill for the period 1 Jan – 31 Mar is now available in your online account. Amount: £96.12, to be
        collected by Direct Debit on 15 April.
        """, "none"),
    it(TACTIC, """
        ⏰ Only 2 hours left! Your Amazon Prime free delivery voucher expires at midnight — claim it now before
        it's gone.
        """, "urgency"),
    it(TACTIC, """
        Metropolitan Police notice: your National Insurance number has been linked to fraudulent activity and
        will be suspended. Press 1 to speak to an officer.
        """, "fear", amb=True),
    # ---- risk ------------------------------------------------------------------------------------------------
    it(RISK, """
        From: Zoom <no-reply@zoom.us>
        Subject: Your cloud recording is now available

        Hi Tamsin, your cloud recording for "Weekly product sync" is now available. Recording link (on zoom.us).
        """, 0),
    it(RISK, """
        From: Sarah from Canva <sarah@engage.canva.com>
        Subject: 5 templates to make your posters pop

        Hi there! We picked a few templates we think you'll love. Try them free. If you'd rather not hear from
        us, unsubscribe here.
        """, 0),
    it(RISK, """
        From: "Jordan Lee" <jordan.lee.accounts@outlook.com>
        Subject: Invoice for March

        Hi, this is Jordan from Lee & Daughters Plumbing — our work email is down so I'm using my personal one.
        Invoice for the boiler service attached, same account as usual.
        """, 2),
    it(RISK, """
        Your Apple ID was used to sign in on a new device in Moscow. If this wasn't you, verify now at
        appleid-verify-secure.com to stop your account being locked.
        """, 3),
    it(RISK, """
        From: University IT <it-helpdesk@camford.ac.uk>
        Subject: Password expiry — 3 days remaining

        Your university password expires in 3 days. Change it in the usual way at https://password.camford.ac.uk
        or at any campus PC. IT will never ask for your password by email.
        """, 1, amb=True),
    it(RISK, """
        From: "HSBC" <alerts@hsbc-secure-verification.net>
        Subject: Your card has been suspended

        We've detected suspicious activity. Click below and enter your card number, expiry date and CVV to
        reactivate your card.
        """, 3),
    it(RISK, """
        From: Tom Whitaker <tom.whitaker@fieldhouse-events.com>
        Subject: Updated quote for the June conference — please review

        Hi Alexa, following our call, attached is the revised quote with the extra breakout room. The only change
        from v2 is line 7. Shout if anything looks off. Tom
        Attachment: Fieldhouse_Quote_v3.pdf
        """, 1),
    it(RISK, """
        Your Evri parcel is waiting. We couldn't deliver it due to an incomplete address. Update here:
        evri-redeliver.top/uk
        """, 3),
    it(RISK, """
        From: "Payments Team" <payments@notion.so>
        Subject: Payment failed — please update your card

        We couldn't charge your card for Notion Plus. Update your payment method in Settings > Billing within 7
        days to keep your workspace on Plus.
        """, 1, amb=True),
    it(RISK, """
        From: "Olivia (Head of Finance)" <olivia.grant@mapleworks-group.com>
        Subject: quick favour

        Hi, are you free? I need you to handle a quick payment for me today, I'm travelling and can't log in.
        Reply with your mobile number and I'll text the details.
        """, 2),
    it(RISK, """
        From: LinkedIn <messages-noreply@linkedin.com>
        Subject: Sam Patel has accepted your invitation

        Sam Patel, Senior Data Engineer at Monzo, accepted your invitation. Start a conversation.
        """, 0),
    it(RISK, """
        From: "Carla Ruiz" <carla.ruiz@brightwave-studio.com>
        Subject: Re: logo files

        Hi Ben, here are the final logo files in the shared folder we set up last week (same Google Drive link as
        before). The SVGs are in /final. Let me know if the client wants the dark version too!
        """, 0),
    it(RISK, """
        From: "DVLA" <info@dvla-vehicle-tax.uk.com>
        Subject: Your vehicle tax payment failed

        Your latest vehicle tax payment was unsuccessful. Update your payment details to avoid a £1,000 fine:
        dvla-vehicle-tax.uk.com/renew
        """, 3),
    it(RISK, """
        Hi it's Jess from the climbing wall! We've moved the Thursday session to 7pm because of the competition.
        Same place. Reply STOP to opt out of texts.
        """, 0),
    it(RISK, """
        From: "Finance - Mapleworks" <accounts@mapleworks-group.co>
        Subject: Remittance advice 4410-22

        Please see the attached remittance advice for your records. Open with your Office 365 credentials when
        prompted.
        Attachment: Remittance_4410-22.htm
        """, 3, amb=True),
    it(RISK, """
        From: "Microsoft Teams" <noreply@teams-voicemail-notify.com>
        Subject: You have a new voicemail (0:42)

        Play voicemail: open the attached VM_0042.html and sign in with your Microsoft 365 account to listen.
        """, 3),
    # ---- medium-length emails -------------------------------------------------------------------------------
    it(PHISH, """
        From: People Team <people@corvid-analytics.com>
        To: uk-staff@corvid-analytics.com
        Subject: Benefits enrolment window opens Monday 4 November

        Hi everyone,

        A reminder that our annual benefits enrolment window runs from Monday 4 November to Friday 22 November.
        This is your chance to change your private medical cover (add a partner or children), join or leave the
        cycle-to-work scheme, or change your pension contribution.

        How to make changes: sign in to Workday as usual (through the Okta tile on your dashboard) and go to
        Benefits > Open Enrolment. You won't need to enter any new passwords. If you don't want to change anything,
        you don't need to do anything: your current choices roll over.

        We're running two drop-in Q&A sessions with our broker, on Wednesday 6 November at 12:30 and Thursday
        14 November at 16:00. Calendar invites will follow from this address.

        Any questions, reply here or ask in #ask-people on Slack.

        Thanks,
        Maya, Tom and Kofi — People Team
        """, False),
    it(KIND, """
        From: "OneDrive" <no-reply@onedrive-sharedfiles.net>
        To: accounts@millbrook-dental.co.uk
        Subject: Kieran Walsh shared "Millbrook Dental - Remittance Q3.pdf" with you

        Kieran Walsh shared a file with you.

        Hi, please see the remittance for Q3 as discussed. Let me know if anything doesn't match your records.
        Kieran

        [ Open ]

        This link will work for anyone with a Microsoft 365 account at millbrook-dental.co.uk. For your
        security, you'll be asked to confirm your email address and password before the document is displayed.
        This link expires in 48 hours.

        Microsoft respects your privacy. To learn more, please read our Privacy Statement.
        Microsoft Corporation, One Microsoft Way, Redmond, WA 98052
        (The [ Open ] button links to https://onedrive-sharedfiles.net/auth/login?client=millbrook-dental)
        """, "credential_phishing"),
]
