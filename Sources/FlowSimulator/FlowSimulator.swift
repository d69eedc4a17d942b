// FlowSimulator: the headless flow simulator. See World.swift (the device), Simulator.swift (runs, explore),
// FlowLoader.swift (flow files), Trace.swift (trace events) and Pages/README.md (the flow-file format).
