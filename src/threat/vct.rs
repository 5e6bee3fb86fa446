//! VCT placeholder.
