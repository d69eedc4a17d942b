// FlowSimulator: the headless flow simulator. Device/ is the simulated phone (World.swift and its extensions: web
// view, browsers, OS routing, apps), Flows/ reads flow files and recordings (FlowLoader.swift), Simulation/ runs
// flows and explores branches (Simulator.swift, trace events in TraceEvent.swift), Engines/ is engine mode's seam
// (WebEngine.swift), Reporting/ writes JUnit and HTML, DecisionTable/ writes the navigations flows ask as a table
// an Android app's tests replay (DecisionTable.swift). The flow-file format: Pages/README.md.
