// The headless flow simulator. STUB: being written.
import NavigationPolicy
import PageScan
