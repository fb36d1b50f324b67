"""The wing for everything that learns from labelled decisions: calibration profiles and their fitting,
content-free priors, the hidden-state head (`onepass tune`), and `onepass learn` (methods, splits, adapters)."""
