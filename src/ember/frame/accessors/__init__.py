"""Series accessors: .str, .dt, .cat — one module each, thin wrappers over ops/."""
